#!/usr/bin/env bash
# Session 55, call 4: ReduceByKey with 16-byte loads (after, 03a71b1: align 16
# on the native kernels' buffers, a whole thread's items loaded first)
# against base (e4f07f9), CUDA, 2^20..2^26, at ITEMS 12 (default), 8 and 16,
# with CUB; then the other families against base through CUDA at
# 2^22..2^26 (every native kernel now has aligned buffers); device_cuda.
set -u
OUT=$1
B=target/wk-demos-e4f.gz
PLAN="bk=after:by_key:reduce_sum_u32:cuda bk-base=$B:by_key:reduce_sum_u32:cuda bk8=after:by_key:reduce_sum_u32:cuda:ITEMS=8u bk16=after:by_key:reduce_sum_u32:cuda:ITEMS=16u bk-again=after:by_key:reduce_sum_u32:cuda bk-base-again=$B:by_key:reduce_sum_u32:cuda" \
  CUB_ONLY=by_key LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 CUB_S=60 BUDGET_S=220 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab1.log
PLAN="sk=after:by_key:scan_sum_u32,segmented_sum_u32:cuda sk-base=$B:by_key:scan_sum_u32,segmented_sum_u32:cuda pt=after:partition:half_u32:cuda pt-base=$B:partition:half_u32:cuda un=after:unique:runs_u32:cuda un-base=$B:unique:runs_u32:cuda ad=after:adjacent_difference:left_u32:cuda ad-base=$B:adjacent_difference:left_u32:cuda rs=after:radix_sort:keys,pairs:cuda rs-base=$B:radix_sort:keys,pairs:cuda sc=after:scan:auto:cuda sc-base=$B:scan:auto:cuda" \
  LOG2_LO=22 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=230 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab2.log
BIN=/tmp/wk-ab
source bench/device-setup.sh
cd $BIN && "${WK[@]}" timeout 100 ./wk-device-cuda > $OUT/device-cuda.log 2>&1; echo "device_cuda rc=$?" >> $OUT/device-cuda.log
tail -3 $OUT/device-cuda.log
