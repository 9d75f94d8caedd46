#!/usr/bin/env bash
# Session 56, call 8: SegmentedReduce and SegmentedScan over fixed segments
# of 1024 and 65536 through CUDA and Vulkan at 2^20..2^26, with CUB's
# DeviceSegmentedReduce::Sum and (for the scans, CUB 3.0 having no
# DeviceSegmentedScan) DeviceScan::InclusiveSumByKey over segment numbers.
set -u
OUT=$1
V=segmented_sum_u32,segmented_long_sum_u32,segmented_scan_u32,segmented_scan_long_u32
PLAN="seg=after:by_key:$V:cuda" \
  CUB_ONLY=by_key LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=45 CUB_S=60 BUDGET_S=110 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab1.log
PLAN="seg-vk=after:by_key:$V:vulkan" \
  LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=50 BUDGET_S=55 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab2.log
