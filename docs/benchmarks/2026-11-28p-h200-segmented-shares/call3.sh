#!/usr/bin/env bash
# Session 57, call 3: segmented.wgsl, the reduction by shares (its tail one
# group at a time) and the scan by tiles of BLOCK * ITEMS * GROUPS with one
# barrier a tile (after), against base (b2a4263), fixed segments of 1024 and
# 65536, CUDA at 2^20..2^26; shapes of after through WAVEKIT_SHADER_PARAMS;
# Vulkan after and base; then device_cuda.
set -u
OUT=$1
V=segmented_sum_u32,segmented_long_sum_u32,segmented_scan_u32,segmented_scan_long_u32
B=target/wk-demos-base.gz
PLAN="after=after:by_key:$V:cuda base=$B:by_key:$V:cuda g8=after:by_key:$V:cuda:GROUPS=8u i2g8=after:by_key:$V:cuda:ITEMS=2u,GROUPS=8u b512=after:by_key:$V:cuda:BLOCK=512u g2=after:by_key:$V:cuda:GROUPS=2u" \
  LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=40 BUDGET_S=250 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab1.log
PLAN="after-vk=after:by_key:$V:vulkan base-vk=$B:by_key:$V:vulkan" \
  LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=50 BUDGET_S=110 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab2.log
source bench/device-setup.sh >/dev/null 2>&1
timeout 150 "${WK[@]}" target/nvc/s57/device_cuda --test-threads 1 > $OUT/device_cuda.log 2>&1; echo "device_cuda exit=$?" >> $OUT/device_cuda.log
tail -3 $OUT/device_cuda.log
