#!/usr/bin/env bash
# Session 58, call 2: SegmentedReduce's two forms (short: 4 quads a lane,
# 8 workgroups an SM natively; long: 8 quads, from 8192 elements a
# segment) against call 1's build (4 quads, no hint: 34 registers),
# fixed segments of 1024, 8192 is not run; 1024 and 65536, CUDA with CUB
# and Vulkan at 2^20..2^26; then device_cuda of this build.
set -u
OUT=$1
V=segmented_sum_u32,segmented_long_sum_u32
B=target/wk-demos-q4.gz
PLAN="after=after:by_key:$V:cuda q4=$B:by_key:$V:cuda" \
  CUB_ONLY=by_key LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 CUB_S=70 BUDGET_S=140 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab1.log
PLAN="after-vk=after:by_key:$V:vulkan q4-vk=$B:by_key:$V:vulkan" \
  LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=40 BUDGET_S=90 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab2.log
source bench/device-setup.sh >/dev/null 2>&1
gunzip -c target/nvc/s58/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 150 "${WK[@]}" /tmp/device_cuda --test-threads 1 > $OUT/device_cuda.log 2>&1; echo "device_cuda exit=$?" >> $OUT/device_cuda.log
tail -3 $OUT/device_cuda.log
