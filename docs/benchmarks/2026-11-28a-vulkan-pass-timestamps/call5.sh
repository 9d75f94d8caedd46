#!/usr/bin/env bash
# Session 52, call 5: the library through Vulkan timed by encoder timestamps (main,
# 691fe65) against its own pass's timestamps (this build), same run; CUB.
set -u
OUT=$1
P=""
for e in reduce:sum_f32 scan:auto compact:u32_half radix_sort:keys by_key:scan_sum_u32 arg_reduce:min_f32 top_k:largest_f32_k64; do
  d=${e%%:*}; v=${e#*:}
  P="$P enc-$d=target/wk-demos-main.gz:$d:$v:vulkan pass-$d=after:$d:$v:vulkan"
done
PLAN="$P" CUB_ONLY=reduce,scan,compact,radix_sort,by_key,arg_reduce,top_k LOG2_LO=16 LOG2_HI=24 RUNS=15 WARMUP=3 STEP_S=30 BUDGET_S=420 bash bench/ab-demos.sh $OUT
