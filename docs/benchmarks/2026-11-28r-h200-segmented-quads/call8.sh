#!/usr/bin/env bash
# Session 58, call 8 (an experiment, not committed): through Vulkan, the
# segmented scan and reduction with wgpu's workgroup zeroing off
# (WK_EXPERIMENT_NOZERO in a build of a6dcb18 whose wgpu server reads it)
# against it on, 2^20..2^26.
set -u
OUT=$1
V=segmented_scan_u32,segmented_scan_long_u32,segmented_sum_u32,segmented_long_sum_u32
B=target/wk-demos-nozero.gz
PLAN="zero-vk=$B:by_key:$V:vulkan" LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=45 BUDGET_S=60 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab1.log
export WK_EXPERIMENT_NOZERO=1
PLAN="nozero-vk=$B:by_key:$V:vulkan" LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=45 BUDGET_S=60 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab2.log
grep -c FAIL $OUT/ab1.log $OUT/ab2.log
