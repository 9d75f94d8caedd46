#!/usr/bin/env bash
# Session 58, call 10: SegmentedReduce with parts() free of wrapping sums
# (the committed code) against call 7's build (r7), fixed segments of
# 1024 and 65536, CUDA at 2^20..2^26; then device_cuda of this build.
set -u
OUT=$1
V=segmented_sum_u32,segmented_long_sum_u32
B=target/wk-demos-r7.gz
PLAN="after=after:by_key:$V:cuda r7=$B:by_key:$V:cuda" \
  LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=70 bash bench/ab-demos.sh $OUT
source bench/device-setup.sh >/dev/null 2>&1
gunzip -c target/nvc/s58/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 150 "${WK[@]}" /tmp/device_cuda --test-threads 1 > $OUT/device_cuda.log 2>&1; echo "device_cuda exit=$?" >> $OUT/device_cuda.log
tail -3 $OUT/device_cuda.log
