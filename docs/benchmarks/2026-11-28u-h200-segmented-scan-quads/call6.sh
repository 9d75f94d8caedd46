#!/usr/bin/env bash
# Session 59, call 6: Scan::with_operator (inclusive u32 max) with one
# block scan a tile (its total published, its exclusive part stored from)
# against call 5's build (c5, two block scans a tile) run as committed in
# 66c6934 (LOAD_TRANSPOSED=false), and tiles of 256 x 12 and 256 x 16
# (ITEMS), CUDA and Vulkan at 2^20..2^26, with CUB in the same call
# (device_cuda left for call 7: the 64 MiB carry).
set -u
OUT=$1
V=inclusive_max_u32
B=target/wk-demos-c5.gz
PLAN="after=after:scan:$V:cuda c5=$B:scan:$V:cuda:LOAD_TRANSPOSED=false items12=after:scan:$V:cuda:ITEMS=12u items16=after:scan:$V:cuda:ITEMS=16u after-vk=after:scan:$V:vulkan c5-vk=$B:scan:$V:vulkan:LOAD_TRANSPOSED=false items16-vk=after:scan:$V:vulkan:ITEMS=16u after2=after:scan:$V:cuda c5-2=$B:scan:$V:cuda:LOAD_TRANSPOSED=false" \
  LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=200 bash bench/ab-demos.sh $OUT
source bench/device-setup.sh >/dev/null 2>&1
echo "== CUB scan 2^20..2^26" >> $OUT/ab.log
timeout 90 target/nvc/s59/cub_ref --log2 20 26 --warmup 3 --warmup-ms 200 --runs 10 --only scan \
  > $OUT/cub.jsonl 2>> $OUT/ab.log; echo "cub_ref exit=$?" >> $OUT/ab.log
