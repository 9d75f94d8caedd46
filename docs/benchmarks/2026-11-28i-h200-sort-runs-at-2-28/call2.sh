#!/usr/bin/env bash
# Session 55, call 2: MergeSort with its value runs bound apart (after,
# 63959ff) against main before this stop (base, e4f07f9), CUDA and Vulkan,
# 2^20..2^26, with CUB; SegmentedSort and MergeSort pairs at 2^27..2^28
# through CUDA with CUB; device_cuda.
set -u
OUT=$1
B=target/wk-demos-e4f.gz
PLAN="ms=after:merge_sort:pairs_u32:cuda ms-base=$B:merge_sort:pairs_u32:cuda ms-vk=after:merge_sort:pairs_u32:vulkan ms-vk-base=$B:merge_sort:pairs_u32:vulkan" \
  CUB_ONLY=merge_sort LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=45 CUB_S=60 BUDGET_S=170 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab1.log
PLAN="mx=after:segmented_sort:mixed_pairs:cuda ms=after:merge_sort:pairs_u32:cuda" \
  CUB_ONLY=segmented_sort,merge_sort LOG2_LO=27 LOG2_HI=28 RUNS=5 WARMUP=2 STEP_S=120 CUB_S=80 BUDGET_S=260 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab3.log
BIN=/tmp/wk-ab
source bench/device-setup.sh
cd $BIN && "${WK[@]}" timeout 100 ./wk-device-cuda > $OUT/device-cuda.log 2>&1; echo "device_cuda rc=$?" >> $OUT/device-cuda.log
tail -3 $OUT/device-cuda.log
