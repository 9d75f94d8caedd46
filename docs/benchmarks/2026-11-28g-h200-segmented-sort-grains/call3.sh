#!/usr/bin/env bash
# Session 54, call 3: SegmentedSort in grains (after) against merge passes
# in 512 workgroups (m512) and 32 segments a sort_short workgroup (s32),
# CUDA, mixed (1..=64) and long (1..=16384) segments, 2^20..2^26; CUB.
set -u
OUT=$1
PLAN="mx=after:segmented_sort:mixed_pairs:cuda mx-m512=target/wk-demos-m512.gz:segmented_sort:mixed_pairs:cuda mx-s32=target/wk-demos-s32.gz:segmented_sort:mixed_pairs:cuda lg=after:segmented_sort:long_pairs:cuda lg-m512=target/wk-demos-m512.gz:segmented_sort:long_pairs:cuda mx-vk=after:segmented_sort:mixed_pairs:vulkan lg-vk=after:segmented_sort:long_pairs:vulkan" \
  CUB_ONLY=segmented_sort LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=45 CUB_S=90 BUDGET_S=330 bash bench/ab-demos.sh $OUT
