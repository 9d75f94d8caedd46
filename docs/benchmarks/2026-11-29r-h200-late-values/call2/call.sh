#!/usr/bin/env bash
# Session 68, call 2: the change (512 x 16 natively for two workgroups an SM,
# pairs' values late and staged in the counter rows; keys past n staged
# untested; the plain look-back's row from tile_slot) against 70ca988
# (base.gz): the library through CUDA to 2^28 and Vulkan to 2^26 with CUB;
# the demo's own steps at other pair shapes (CUDA 384 x 20, Vulkan with the
# values late); device_cuda with this build's kernels and hosts.
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
own() {
  local shape=$1 variant=$2 params=${3:-} backend=${4:-cuda}
  local envs=(WAVEKIT_DEMOS_LIBRARY=0 WAVEKIT_ONESWEEP_SHAPE=$shape)
  [[ -n $params ]] && envs+=(WAVEKIT_SHADER_PARAMS=$params)
  echo "== own $shape $variant [$params] $backend" >> $OUT/own.log
  timeout 20 env "${envs[@]}" "${WK[@]}" $BIN/wk-demos radix_sort --variant $variant --backend $backend \
    --log2 "22..=26" --warmup 3 --warmup-ms 200 --settle-ms 100 --runs 10 >> $OUT/own.log 2>&1 || echo "== exit $?" >> $OUT/own.log
}
own 512x16sr2 pairs "" cuda
own 384x20sr2 pairs "" cuda
own 512x10s pairs "" vulkan
own 512x12s2 pairs "LATE_VALUES=true" vulkan
own 512x14s2 pairs "LATE_VALUES=true" vulkan
gunzip -c target/nvc/s68/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 150 "${WK[@]}" /tmp/device_cuda --test-threads 1 2>&1 | tail -30 | tee "$OUT/device-cuda.log" | tail -4
grep -c FAIL $OUT/*.log
