#!/usr/bin/env bash
# Session 52, call 9: issue 35's families through Vulkan (each call timed by its
# own pass) and CUDA, 2^20..2^24, with CUB, in one call.
set -u
OUT=$1
P=""
for e in partition:half_u32 unique:runs_u32 adjacent_difference:left_u32 transform_reduce:square_sum_f32 arg_reduce:min_f32 by_key:reduce_sum_u32 by_key:segmented_sum_u32 histogram_range:uniform_u32 merge_sort:pairs_u32 binary_search:lower_u32; do
  d=${e%%:*}; v=${e#*:}
  P="$P vk-$d-$v=after:$d:$v:vulkan cu-$d-$v=after:$d:$v:cuda"
done
PLAN="$P" CUB_ONLY=partition,unique,adjacent_difference,transform_reduce,arg_reduce,by_key,histogram_range,merge_sort,binary_search LOG2_LO=20 LOG2_HI=24 RUNS=10 WARMUP=3 STEP_S=25 BUDGET_S=320 bash bench/ab-demos.sh $OUT
