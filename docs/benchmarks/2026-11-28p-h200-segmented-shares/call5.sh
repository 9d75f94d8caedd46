#!/usr/bin/env bash
# Session 57, call 5: the committed code (the reduction by shares, the scan
# as base's) against base (b2a4263), fixed segments of 1024 and 65536, CUDA
# with CUB and Vulkan at 2^20..2^26; then device_cuda (conformance through
# CUDA) of the committed code.
set -u
OUT=$1
V=segmented_sum_u32,segmented_long_sum_u32,segmented_scan_u32,segmented_scan_long_u32
B=target/wk-demos-base.gz
PLAN="after=after:by_key:$V:cuda base=$B:by_key:$V:cuda" \
  CUB_ONLY=by_key LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=40 CUB_S=70 BUDGET_S=160 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab1.log
PLAN="after-vk=after:by_key:$V:vulkan base-vk=$B:by_key:$V:vulkan" \
  LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=50 BUDGET_S=110 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab2.log
source bench/device-setup.sh >/dev/null 2>&1
gunzip -c target/nvc/s57/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 150 "${WK[@]}" /tmp/device_cuda --test-threads 1 > $OUT/device_cuda.log 2>&1; echo "device_cuda exit=$?" >> $OUT/device_cuda.log
tail -3 $OUT/device_cuda.log
