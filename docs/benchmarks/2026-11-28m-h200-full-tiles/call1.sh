#!/usr/bin/env bash
# Session 56, call 1: the OneSweep pass with full tiles unchecked (after,
# 6c190d8 + the change) against base (6c190d8), keys and pairs through CUDA
# at 2^20..2^26 with CUB, twice; the demo's own steps at 512x12 and 512x12r2
# (pairs) and 512x15 / 512x15r2 (keys); Vulkan keys and pairs; device_cuda.
set -u
OUT=$1
B=target/wk-demos-6c1.gz
PLAN="rs=after:radix_sort:keys,pairs:cuda rs-base=$B:radix_sort:keys,pairs:cuda rs2=after:radix_sort:keys,pairs:cuda rs-base2=$B:radix_sort:keys,pairs:cuda" \
  CUB_ONLY=radix_sort LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 CUB_S=50 BUDGET_S=170 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab1.log
BIN=/tmp/wk-ab
source bench/device-setup.sh
for shape in 512x12 512x12r2 512x15 512x15r2; do
  v=pairs; [[ $shape == 512x15* ]] && v=keys
  echo "== own $shape $v" >> $OUT/own.log
  timeout 30 env WAVEKIT_DEMOS_LIBRARY=0 WAVEKIT_ONESWEEP_SHAPE=$shape "${WK[@]}" $BIN/wk-demos radix_sort --variant $v --backend cuda \
    --log2 "22..=26" --warmup 3 --warmup-ms 200 --settle-ms 100 --runs 10 >> $OUT/own.log 2>&1 || echo "== exit $?" >> $OUT/own.log
done
PLAN="vk=after:radix_sort:keys,pairs:vulkan vk-base=$B:radix_sort:keys,pairs:vulkan" \
  LOG2_LO=22 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=35 BUDGET_S=75 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab2.log
cd $BIN && "${WK[@]}" timeout 60 ./wk-device-cuda > $OUT/device-cuda.log 2>&1; echo "device_cuda rc=$?" >> $OUT/device-cuda.log
tail -3 $OUT/device-cuda.log
