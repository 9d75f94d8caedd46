#!/usr/bin/env bash
# Session 69, call E: where issue 35's families stand at 5c62576 (the pack
# of call D): each through Vulkan (timed by its own pass) and CUDA,
# 2^22..2^26, with CUB, in one call; 2026-11-29d's set without the radix
# sort and the operator scan (in the standard run, 2026-11-29t).
set -u
OUT=$1
P=""
for e in by_key:reduce_sum_u32 by_key:scan_sum_u32 partition:half_u32 unique:runs_u32 arg_reduce:min_f32 adjacent_difference:left_u32 transform_reduce:square_sum_f32 by_key:segmented_sum_u32 by_key:segmented_scan_u32 histogram_range:uniform_u32 binary_search:lower_u32 merge_sort:pairs_u32; do
  d=${e%%:*}; v=${e#*:}
  P="$P cu-$d-$v=after:$d:$v:cuda vk-$d-$v=after:$d:$v:vulkan"
done
PLAN="$P" CUB_ONLY=by_key,partition,unique,arg_reduce,adjacent_difference,transform_reduce,histogram_range,binary_search,merge_sort LOG2_LO=22 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=25 CUB_S=60 BUDGET_S=215 bash bench/ab-demos.sh $OUT
grep -c FAIL $OUT/ab.log
