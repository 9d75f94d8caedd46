#!/usr/bin/env bash
# Session 62, call 5: where issue 35's families and the sort stand on an
# H200 after this stop's by-key change: each through Vulkan (timed by its
# own pass) and CUDA, 2^20..2^26, with CUB, in one call (the build of call
# 4, fa4e56b; nothing measured here changed since).
set -u
OUT=$1
P=""
for e in by_key:reduce_sum_u32 by_key:scan_sum_u32 partition:half_u32 unique:runs_u32 arg_reduce:min_f32 adjacent_difference:left_u32 transform_reduce:square_sum_f32 by_key:segmented_sum_u32 by_key:segmented_scan_u32 histogram_range:uniform_u32 binary_search:lower_u32 merge_sort:pairs_u32 scan:inclusive_max_u32 radix_sort:pairs; do
  d=${e%%:*}; v=${e#*:}
  P="$P vk-$d-$v=after:$d:$v:vulkan cu-$d-$v=after:$d:$v:cuda"
done
PLAN="$P" CUB_ONLY=by_key,partition,unique,arg_reduce,adjacent_difference,transform_reduce,histogram_range,binary_search,merge_sort,scan,radix_sort LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 CUB_S=60 BUDGET_S=500 bash bench/ab-demos.sh $OUT
