#!/usr/bin/env bash
# Session 58, call 4: SegmentedScan against CUB's own DeviceSegmentedScan
# (CCCL main, bench/ref/cub_segscan.cu, built on the build machine: no
# release has it) besides cub_ref's InclusiveSumByKey stand-in, fixed
# segments of 1024 and 65536, 2^20..2^26; wavekit through CUDA and Vulkan
# (18ec63b: SegmentedScan unchanged since stop 57).
set -u
OUT=$1
V=segmented_scan_u32,segmented_scan_long_u32
PLAN="after=after:by_key:$V:cuda after-vk=after:by_key:$V:vulkan" \
  CUB_ONLY=by_key LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=40 CUB_S=70 BUDGET_S=170 bash bench/ab-demos.sh $OUT
source bench/device-setup.sh >/dev/null 2>&1
echo "== CUB DeviceSegmentedScan (CCCL main): by_key 2^20..2^26" >> $OUT/ab.log
timeout 60 target/nvc/s58/cub_segscan --log2 20 26 --warmup 3 --warmup-ms 200 --runs 10 --only by_key \
  > $OUT/segscan.jsonl 2>> $OUT/ab.log; echo "cub_segscan exit=$?" >> $OUT/ab.log
tail -16 $OUT/ab.log
