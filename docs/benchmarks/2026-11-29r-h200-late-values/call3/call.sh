#!/usr/bin/env bash
# Session 68, call 3: f59b5f5 (512 x 16 keys, 512 x 14 pairs with the values
# late, two workgroups an SM natively) against 70ca988 (base.gz): the
# library through CUDA to 2^28 and Vulkan to 2^26 with CUB; Nsight Compute
# of the keys' and pairs' sorts at 2^26; device_cuda with f59b5f5's kernels
# and hosts.
set -u
OUT=$1
B=target/nvc/s68/base.gz
PLAN="cu=after:radix_sort:keys,pairs:cuda cu-base=$B:radix_sort:keys,pairs:cuda" \
  CUB_ONLY=radix_sort LOG2_LO=20 LOG2_HI=28 RUNS=10 WARMUP=3 STEP_S=75 CUB_S=60 BUDGET_S=220 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab1.log
PLAN="vk=after:radix_sort:keys,pairs:vulkan vk-base=$B:radix_sort:keys,pairs:vulkan" \
  CUB_ONLY=radix_sort LOG2_LO=18 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=40 CUB_S=40 BUDGET_S=120 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab2.log
BIN=/tmp/wk-ab
source bench/device-setup.sh
gunzip -c target/nvc/s68/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 100 "${WK[@]}" /tmp/device_cuda --test-threads 1 2>&1 | tail -30 | tee "$OUT/device-cuda.log" | tail -4
S=(--section SpeedOfLight --section LaunchStats --section Occupancy --section InstructionStats --section WarpStateStats --section MemoryWorkloadAnalysis)
for v in pairs keys; do
  timeout 60 ncu "${S[@]}" --launch-count 8 "${WK[@]}" $BIN/wk-demos radix_sort --variant $v --backend cuda --log2 "26..=26" --warmup 0 --warmup-ms 0 --runs 1 2>&1 | grep -v "loop not unrolled" | grep -v "^==PROF==" > $OUT/ncu-wavekit-$v.log
  echo "ncu $v rc=$?"
done
gzip -9 $OUT/ncu-*.log
grep -c FAIL $OUT/*.log
