#!/usr/bin/env bash
# Session 56, call 4: full tiles through wgpu only, natively the PTX of
# base but for a branch's polarity (tile_keys computed where it was):
# CUDA A/B against base 6c190d8 (radix keys and pairs, ReduceByKey,
# ScanByKey) twice with CUB; Vulkan once; device_cuda.
set -u
OUT=$1
B=target/wk-demos-6c1.gz
PLAN="rs=after:radix_sort:keys,pairs:cuda rs-base=$B:radix_sort:keys,pairs:cuda bk=after:by_key:reduce_sum_u32,scan_sum_u32:cuda bk-base=$B:by_key:reduce_sum_u32,scan_sum_u32:cuda rs2=after:radix_sort:keys,pairs:cuda rs-base2=$B:radix_sort:keys,pairs:cuda" \
  CUB_ONLY=radix_sort,by_key LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=25 CUB_S=45 BUDGET_S=170 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab1.log
PLAN="vk=after:radix_sort:keys,pairs:vulkan vk-base=$B:radix_sort:keys,pairs:vulkan bk=after:by_key:reduce_sum_u32,scan_sum_u32:vulkan bk-base=$B:by_key:reduce_sum_u32,scan_sum_u32:vulkan" \
  LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=100 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab2.log
BIN=/tmp/wk-ab
source bench/device-setup.sh
cd $BIN && "${WK[@]}" timeout 60 ./wk-device-cuda > $OUT/device-cuda.log 2>&1; echo "device_cuda rc=$?" >> $OUT/device-cuda.log
tail -3 $OUT/device-cuda.log
