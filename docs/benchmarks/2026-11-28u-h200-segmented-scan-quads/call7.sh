#!/usr/bin/env bash
# Session 59, call 7: Scan::with_operator (inclusive u32 max) at 12 items
# a thread (the new default, tiles of 3072) against 8 and 10 (ITEMS), one
# build, CUDA and Vulkan at 2^20..2^26, with CUB in the same call; then
# device_cuda of this build (the final code).
set -u
OUT=$1
V=inclusive_max_u32
PLAN="after=after:scan:$V:cuda items8=after:scan:$V:cuda:ITEMS=8u items10=after:scan:$V:cuda:ITEMS=10u after-vk=after:scan:$V:vulkan items8-vk=after:scan:$V:vulkan:ITEMS=8u items10-vk=after:scan:$V:vulkan:ITEMS=10u" \
  LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=160 bash bench/ab-demos.sh $OUT
source bench/device-setup.sh >/dev/null 2>&1
echo "== CUB scan 2^20..2^26" >> $OUT/ab.log
timeout 90 target/nvc/s59/cub_ref --log2 20 26 --warmup 3 --warmup-ms 200 --runs 10 --only scan \
  > $OUT/cub.jsonl 2>> $OUT/ab.log; echo "cub_ref exit=$?" >> $OUT/ab.log
rm -f /tmp/device_cuda
gunzip -c target/nvc/s59/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 150 "${WK[@]}" /tmp/device_cuda --test-threads 1 > $OUT/device_cuda.log 2>&1; echo "device_cuda exit=$?" >> $OUT/device_cuda.log
tail -3 $OUT/device_cuda.log
