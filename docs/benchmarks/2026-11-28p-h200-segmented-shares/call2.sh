#!/usr/bin/env bash
# Session 57, call 2 (call 1 ran CUB only: libz3 was not carried): segmented.wgsl's subgroup shares (after) against base
# (b2a4263: one block scan a tile of 1024), SegmentedReduce and
# SegmentedScan over fixed segments of 1024 and 65536, CUDA and Vulkan,
# 2^20..2^26, CUB in call 1; GROUPS=8u and ITEMS=8u variants of after; then
# device_cuda (conformance through CUDA).
set -u
OUT=$1
V=segmented_sum_u32,segmented_long_sum_u32,segmented_scan_u32,segmented_scan_long_u32
PLAN="after=after:by_key:$V:cuda base=target/wk-demos-base.gz:by_key:$V:cuda g8=after:by_key:$V:cuda:GROUPS=8u i8=after:by_key:$V:cuda:ITEMS=8u" \
  LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=45 BUDGET_S=200 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab1.log
PLAN="after-vk=after:by_key:$V:vulkan base-vk=target/wk-demos-base.gz:by_key:$V:vulkan" \
  LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=50 BUDGET_S=110 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab2.log
if [[ -x target/nvc/s57/device_cuda ]]; then
  source bench/device-setup.sh >/dev/null 2>&1
  timeout 150 "${WK[@]}" target/nvc/s57/device_cuda --test-threads 1 > $OUT/device_cuda.log 2>&1; echo "device_cuda exit=$?" >> $OUT/device_cuda.log
  tail -3 $OUT/device_cuda.log
fi
