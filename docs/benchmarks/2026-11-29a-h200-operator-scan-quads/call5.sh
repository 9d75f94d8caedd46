#!/usr/bin/env bash
# Session 61, call 5: PartitionIf (half_u32) through CUDA at ITEMS 32 (the
# default on CUDA), 24, 20 and 16 a thread (WAVEKIT_SHADER_PARAMS; tiles of
# 8192, 6144, 5120, 4096), 2^20..2^26, two rounds of the default, with CUB
# in the same call: whether the 2^22-2^24 gap (1.29 waves of 396 resident
# workgroups at 2^22) is the tile.
set -u
OUT=$1
V=half_u32
PLAN="i32=after:partition:$V:cuda i24=after:partition:$V:cuda:ITEMS=24u i20=after:partition:$V:cuda:ITEMS=20u i16=after:partition:$V:cuda:ITEMS=16u i32b=after:partition:$V:cuda i24b=after:partition:$V:cuda:ITEMS=24u" \
  CUB_ONLY=partition LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=200 bash bench/ab-demos.sh $OUT
