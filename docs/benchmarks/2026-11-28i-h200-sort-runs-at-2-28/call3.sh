#!/usr/bin/env bash
# Session 55, call 3: SegmentedSort (mixed lengths) and MergeSort pairs at
# 2^27..2^28 through Vulkan (the value runs' own bindings keep each binding
# under NVIDIA's max_storage_buffer_binding_size), then through CUDA in the
# same call.
set -u
OUT=$1
PLAN="mx-vk=after:segmented_sort:mixed_pairs:vulkan ms-vk=after:merge_sort:pairs_u32:vulkan mx=after:segmented_sort:mixed_pairs:cuda ms=after:merge_sort:pairs_u32:cuda" \
  LOG2_LO=27 LOG2_HI=28 RUNS=5 WARMUP=2 STEP_S=110 BUDGET_S=420 bash bench/ab-demos.sh $OUT
