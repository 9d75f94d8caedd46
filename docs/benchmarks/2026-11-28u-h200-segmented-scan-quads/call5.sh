#!/usr/bin/env bash
# Session 59, call 5: Scan::with_operator (inclusive u32 max) with the
# window walk (the subgroup of thread 0 reads 32 predecessors a round,
# combined in tile order by a shuffle tree: ORDERED_WINDOW) against thread
# 0 alone (WINDOW=false, call 4's code), and the tile's loads and stores
# transposed or direct, one build, CUDA and Vulkan at 2^20..2^26, with
# CUB's DeviceScan::InclusiveScan (cuda::maximum) and ExclusiveSum in the
# same call; then device_cuda of this build.
set -u
OUT=$1
V=inclusive_max_u32
PLAN="after=after:scan:$V:cuda store-only=after:scan:$V:cuda:LOAD_TRANSPOSED=false direct=after:scan:$V:cuda:LOAD_TRANSPOSED=false,STORE_TRANSPOSED=false serial=after:scan:$V:cuda:WINDOW=false after-vk=after:scan:$V:vulkan store-only-vk=after:scan:$V:vulkan:LOAD_TRANSPOSED=false direct-vk=after:scan:$V:vulkan:LOAD_TRANSPOSED=false,STORE_TRANSPOSED=false serial-vk=after:scan:$V:vulkan:WINDOW=false sum=after:scan:auto:cuda sum-vk=after:scan:auto:vulkan" \
  LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=220 bash bench/ab-demos.sh $OUT
source bench/device-setup.sh >/dev/null 2>&1
echo "== CUB scan 2^20..2^26" >> $OUT/ab.log
timeout 90 target/nvc/s59/cub_ref --log2 20 26 --warmup 3 --warmup-ms 200 --runs 10 --only scan \
  > $OUT/cub.jsonl 2>> $OUT/ab.log; echo "cub_ref exit=$?" >> $OUT/ab.log
gunzip -c target/nvc/s59/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 150 "${WK[@]}" /tmp/device_cuda --test-threads 1 > $OUT/device_cuda.log 2>&1; echo "device_cuda exit=$?" >> $OUT/device_cuda.log
tail -3 $OUT/device_cuda.log
