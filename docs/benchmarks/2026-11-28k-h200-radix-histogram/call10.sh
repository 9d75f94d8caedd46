#!/usr/bin/env bash
# Session 55, call 10: RadixSort with the histogram's tiles handed out one
# at a time (after, 1a58d84) against base (e4f07f9), keys and pairs through
# CUDA at 2^22..2^26 with CUB, keys through Vulkan at 2^24..2^26;
# device_cuda.
set -u
OUT=$1
B=target/wk-demos-e4f.gz
PLAN="rs=after:radix_sort:keys,pairs:cuda rs-base=$B:radix_sort:keys,pairs:cuda rs2=after:radix_sort:keys,pairs:cuda rs-base2=$B:radix_sort:keys,pairs:cuda" \
  CUB_ONLY=radix_sort LOG2_LO=22 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 CUB_S=50 BUDGET_S=150 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab1.log
PLAN="vk=after:radix_sort:keys:vulkan vk-base=$B:radix_sort:keys:vulkan" \
  LOG2_LO=24 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=25 BUDGET_S=55 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab2.log
BIN=/tmp/wk-ab
source bench/device-setup.sh
cd $BIN && "${WK[@]}" timeout 60 ./wk-device-cuda > $OUT/device-cuda.log 2>&1; echo "device_cuda rc=$?" >> $OUT/device-cuda.log
tail -3 $OUT/device-cuda.log
