#!/usr/bin/env bash
# Session 53, call 4: ArgReduce and PartitionIf tile parameters through CUDA,
# 2^20..2^24; SegmentedSort at mixed lengths through CUDA and Vulkan; CUB.
set -u
OUT=$1
A=arg_reduce:min_f32
P=partition:half_u32
PLAN="ar=after:$A:cuda ar-i16=after:$A:cuda:ITEMS=16u ar-i16-p1024=after:$A:cuda:ITEMS=16u,MAX_PARTIALS=1024u ar-i4=after:$A:cuda:ITEMS=4u pt=after:$P:cuda pt-i16=after:$P:cuda:ITEMS=16u pt-i24=after:$P:cuda:ITEMS=24u ss-cu=after:segmented_sort:mixed_pairs:cuda ss-vk=after:segmented_sort:mixed_pairs:vulkan" \
  CUB_ONLY=arg_reduce,partition,segmented_sort LOG2_LO=20 LOG2_HI=24 RUNS=10 WARMUP=3 STEP_S=25 CUB_S=60 BUDGET_S=330 bash bench/ab-demos.sh $OUT
