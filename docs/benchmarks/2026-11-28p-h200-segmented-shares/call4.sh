#!/usr/bin/env bash
# Session 57, call 4: segmented.wgsl with the reduction by shares and the
# scan as base's (one block scan a tile of 1024) with LOOKAHEAD off (after)
# and on (la: the next tile read before this one is scanned), against base
# (b2a4263), fixed segments of 1024 and 65536, CUDA with CUB and Vulkan,
# 2^20..2^26.
set -u
OUT=$1
V=segmented_sum_u32,segmented_long_sum_u32,segmented_scan_u32,segmented_scan_long_u32
B=target/wk-demos-base.gz
PLAN="after=after:by_key:$V:cuda base=$B:by_key:$V:cuda la=after:by_key:$V:cuda:LOOKAHEAD=true" \
  CUB_ONLY=by_key LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=40 CUB_S=70 BUDGET_S=200 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab1.log
PLAN="after-vk=after:by_key:$V:vulkan base-vk=$B:by_key:$V:vulkan la-vk=after:by_key:$V:vulkan:LOOKAHEAD=true" \
  LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=50 BUDGET_S=150 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab2.log
