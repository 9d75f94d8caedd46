#!/usr/bin/env bash
# Session 53, call 1: the CUDA runner's timed runs queued behind a hold kernel
# (after) against 83c5bfd's binary (base), CUDA, 2^16..2^24, with CUB; the
# native library's GPU test (the hold's own check).
set -u
OUT=$1
mkdir -p $OUT
source bench/device-setup.sh >/dev/null 2>&1
mkdir -p /tmp/wk-nl && tar -xzf target/wk-bench.tar.gz -C /tmp/wk-nl ./wk-native-lib
(cd /tmp/wk-nl && env LD_LIBRARY_PATH=/opt/wk/usr/lib/x86_64-linux-gnu timeout 120 ./wk-native-lib --nocapture cuda:: 2>&1 | tail -25) > $OUT/native-lib.log 2>&1
P=""
for e in transform_reduce:square_sum_f32 by_key:segmented_sum_u32 partition:half_u32 by_key:reduce_sum_u32 top_k:largest_f32_k64 arg_reduce:min_f32 unique:runs_u32 adjacent_difference:left_u32 reduce:sum_f32 scan:auto radix_sort:keys; do
  d=${e%%:*}; v=${e#*:}
  P="$P base-$d-$v=target/wk-demos-base.gz:$d:$v:cuda after-$d-$v=after:$d:$v:cuda"
done
PLAN="$P" CUB_ONLY=transform_reduce,by_key,partition,top_k,arg_reduce,unique,adjacent_difference,reduce,scan,radix_sort LOG2_LO=16 LOG2_HI=24 RUNS=10 WARMUP=3 STEP_S=22 BUDGET_S=520 bash bench/ab-demos.sh $OUT
