#!/usr/bin/env bash
# Session 56, call 9: SegmentedReduce and SegmentedScan with 4 (the
# default), 8 and 16 elements a thread (WAVEKIT_SHADER_PARAMS ITEMS), fixed
# segments of 1024 and 65536, through CUDA at 2^20..2^26.
set -u
OUT=$1
V=segmented_sum_u32,segmented_long_sum_u32,segmented_scan_u32,segmented_scan_long_u32
PLAN="i4=after:by_key:$V:cuda i16=after:by_key:$V:cuda:ITEMS=16u i8=after:by_key:$V:cuda:ITEMS=8u" \
  LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=95 bash bench/ab-demos.sh $OUT
