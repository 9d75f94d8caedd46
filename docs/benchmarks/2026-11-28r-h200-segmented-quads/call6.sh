#!/usr/bin/env bash
# Session 58, call 6: SegmentedScan's workgroup shape, by WAVEKIT_SHADER_PARAMS
# on this build (call 5's: BLOCK 256, ITEMS 4): 128 x 8, 128 x 4, 256 x 8,
# 512 x 2, fixed segments of 1024 and 65536, CUDA at 2^20..2^26, with CUB's
# DeviceSegmentedScan (CCCL main) in the same call.
set -u
OUT=$1
V=segmented_scan_u32,segmented_scan_long_u32
PLAN="after=after:by_key:$V:cuda b128i8=after:by_key:$V:cuda:BLOCK=128u,ITEMS=8u b128i4=after:by_key:$V:cuda:BLOCK=128u,ITEMS=4u b256i8=after:by_key:$V:cuda:BLOCK=256u,ITEMS=8u b512i2=after:by_key:$V:cuda:BLOCK=512u,ITEMS=2u" \
  LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=170 bash bench/ab-demos.sh $OUT
source bench/device-setup.sh >/dev/null 2>&1
echo "== CUB DeviceSegmentedScan (CCCL main): by_key 2^20..2^26" >> $OUT/ab.log
timeout 60 target/nvc/s58/cub_segscan --log2 20 26 --warmup 3 --warmup-ms 200 --runs 10 --only by_key \
  > $OUT/segscan.jsonl 2>> $OUT/ab.log; echo "cub_segscan exit=$?" >> $OUT/ab.log
grep -c FAIL $OUT/ab.log
