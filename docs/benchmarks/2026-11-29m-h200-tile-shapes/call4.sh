#!/usr/bin/env bash
# Session 66, call 4: the stop's code (AdjacentDifference 4 a thread on CUDA
# and through wgpu, Unique 256 x 20 on CUDA) against 9304c50 (base.gz), CUDA
# and Vulkan, CUB in the same call; then tests/device_cuda.rs.
set -u
OUT=$1
P=""
for r in 1 2; do
  for e in adjacent_difference:left_u32 unique:runs_u32; do
    d=${e%%:*}; v=${e#*:}
    P="$P cu-$d-after-r$r=after:$d:$v:cuda cu-$d-base-r$r=target/nvc/s66/base.gz:$d:$v:cuda"
    P="$P vk-$d-after-r$r=after:$d:$v:vulkan vk-$d-base-r$r=target/nvc/s66/base.gz:$d:$v:vulkan"
  done
done
P="$P cu-partition=after:partition:half_u32:cuda vk-partition=after:partition:half_u32:vulkan"
PLAN="$P" CUB_ONLY=unique,adjacent_difference,partition LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=25 CUB_S=60 BUDGET_S=360 bash bench/ab-demos.sh $OUT > /dev/null 2>&1
echo "ok lines: $(grep -c '^ok' $OUT/ab.log), FAIL lines: $(grep -c FAIL $OUT/ab.log)"
source bench/device-setup.sh
gunzip -c target/nvc/s66/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 200 "${WK[@]}" /tmp/device_cuda --test-threads 1 > "$OUT/device-cuda.log" 2>&1
echo "device_cuda rc=$?"; grep -E "test result|FAILED|panicked" "$OUT/device-cuda.log"
