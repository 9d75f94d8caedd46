#!/usr/bin/env bash
# Session 56, call 7: RadixSort's histogram grid natively one wave
# (multiprocessors x the workgroups each holds, as CUB) against 8f74374,
# keys and pairs through CUDA at 2^20..2^26 twice with CUB; the radix sort
# at 2^27..2^28 with CUB; device_cuda.
set -u
OUT=$1
B=target/wk-demos-8f7.gz
PLAN="rs=after:radix_sort:keys,pairs:cuda rs-base=$B:radix_sort:keys,pairs:cuda rs2=after:radix_sort:keys,pairs:cuda rs-base2=$B:radix_sort:keys,pairs:cuda" \
  CUB_ONLY=radix_sort LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 CUB_S=45 BUDGET_S=160 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab1.log
PLAN="big=after:radix_sort:keys,pairs:cuda" \
  CUB_ONLY=radix_sort LOG2_LO=27 LOG2_HI=28 RUNS=10 WARMUP=3 STEP_S=80 CUB_S=50 BUDGET_S=135 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab2.log
BIN=/tmp/wk-ab
source bench/device-setup.sh
cd $BIN && "${WK[@]}" timeout 60 ./wk-device-cuda > $OUT/device-cuda.log 2>&1; echo "device_cuda rc=$?" >> $OUT/device-cuda.log
tail -3 $OUT/device-cuda.log
