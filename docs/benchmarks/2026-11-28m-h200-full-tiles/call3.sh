#!/usr/bin/env bash
# Session 56, call 3: full tiles through wgpu only (radix pass and by-key
# loads) against base 6c190d8: Vulkan and CUDA; the native pass with full
# tiles forced at 384- and 512-thread shapes bounded to 2 workgroups an SM
# (the demo's own steps); device_cuda.
set -u
OUT=$1
B=target/wk-demos-6c1.gz
PLAN="vk=after:radix_sort:keys,pairs:vulkan vk-base=$B:radix_sort:keys,pairs:vulkan bk=after:by_key:reduce_sum_u32,scan_sum_u32:vulkan bk-base=$B:by_key:reduce_sum_u32,scan_sum_u32:vulkan vk2=after:radix_sort:keys,pairs:vulkan vk-base2=$B:radix_sort:keys,pairs:vulkan bk2=after:by_key:reduce_sum_u32,scan_sum_u32:vulkan bk-base2=$B:by_key:reduce_sum_u32,scan_sum_u32:vulkan" \
  LOG2_LO=22 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=170 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab1.log
PLAN="rs=after:radix_sort:keys,pairs:cuda rs-base=$B:radix_sort:keys,pairs:cuda bk=after:by_key:reduce_sum_u32,scan_sum_u32:cuda bk-base=$B:by_key:reduce_sum_u32,scan_sum_u32:cuda" \
  CUB_ONLY=radix_sort,by_key LOG2_LO=22 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=25 CUB_S=45 BUDGET_S=130 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab2.log
BIN=/tmp/wk-ab
source bench/device-setup.sh
for run in "384x20r2 keys" "512x15r2 keys" "384x16r2 pairs" "384x18r2 pairs" "512x12r2 pairs" "384x16 pairs"; do
  set -- $run
  echo "== own $1 $2 FULL_TILES=true" >> $OUT/own.log
  timeout 25 env WAVEKIT_DEMOS_LIBRARY=0 WAVEKIT_ONESWEEP_SHAPE=$1 WAVEKIT_SHADER_PARAMS=FULL_TILES=true "${WK[@]}" $BIN/wk-demos radix_sort --variant $2 --backend cuda \
    --log2 "24..=26" --warmup 3 --warmup-ms 200 --settle-ms 100 --runs 10 >> $OUT/own.log 2>&1 || echo "== exit $?" >> $OUT/own.log
done
cd $BIN && "${WK[@]}" timeout 60 ./wk-device-cuda > $OUT/device-cuda.log 2>&1; echo "device_cuda rc=$?" >> $OUT/device-cuda.log
tail -3 $OUT/device-cuda.log
