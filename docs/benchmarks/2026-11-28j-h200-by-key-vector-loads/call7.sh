#!/usr/bin/env bash
# Session 55, call 7: the stop's last code (b7b46a8): ReduceByKey at the
# library's defaults (CUDA 16 a thread with 16-byte loads; Vulkan 12 held
# in registers) and ScanByKey, 2^20..2^26, with CUB; SegmentedSort mixed and
# MergeSort pairs through CUDA at 2^28 with CUB; device_cuda.
set -u
OUT=$1
PLAN="rbk=after:by_key:reduce_sum_u32,scan_sum_u32:cuda rbk-vk=after:by_key:reduce_sum_u32,scan_sum_u32:vulkan" \
  CUB_ONLY=by_key LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=40 CUB_S=60 BUDGET_S=150 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab1.log
PLAN="mx=after:segmented_sort:mixed_pairs:cuda ms=after:merge_sort:pairs_u32:cuda" \
  CUB_ONLY=segmented_sort,merge_sort LOG2_LO=28 LOG2_HI=28 RUNS=5 WARMUP=2 STEP_S=90 CUB_S=80 BUDGET_S=200 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab2.log
BIN=/tmp/wk-ab
source bench/device-setup.sh
cd $BIN && "${WK[@]}" timeout 100 ./wk-device-cuda > $OUT/device-cuda.log 2>&1; echo "device_cuda rc=$?" >> $OUT/device-cuda.log
tail -3 $OUT/device-cuda.log
