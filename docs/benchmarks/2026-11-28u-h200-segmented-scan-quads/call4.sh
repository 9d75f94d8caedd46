#!/usr/bin/env bash
# Session 59, call 4: Scan::with_operator (inclusive u32 max) with the
# tile's loads and stores transposed through workgroup memory (the new
# default) against each thread's 8 words loaded and stored directly (the
# code before, LOAD_TRANSPOSED=false,STORE_TRANSPOSED=false) and each half
# alone, one build, CUDA and Vulkan at 2^20..2^26, with CUB's
# DeviceScan::InclusiveScan (cuda::maximum) in the same call; then
# device_cuda of this build.
set -u
OUT=$1
V=inclusive_max_u32
D=LOAD_TRANSPOSED=false,STORE_TRANSPOSED=false
PLAN="after=after:scan:$V:cuda direct=after:scan:$V:cuda:$D store-only=after:scan:$V:cuda:LOAD_TRANSPOSED=false load-only=after:scan:$V:cuda:STORE_TRANSPOSED=false after-vk=after:scan:$V:vulkan direct-vk=after:scan:$V:vulkan:$D after2=after:scan:$V:cuda direct2=after:scan:$V:cuda:$D" \
  LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=200 bash bench/ab-demos.sh $OUT
source bench/device-setup.sh >/dev/null 2>&1
echo "== CUB scan 2^20..2^26" >> $OUT/ab.log
timeout 90 target/nvc/s59/cub_ref --log2 20 26 --warmup 3 --warmup-ms 200 --runs 10 --only scan \
  > $OUT/cub.jsonl 2>> $OUT/ab.log; echo "cub_ref exit=$?" >> $OUT/ab.log
gunzip -c target/nvc/s59/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 150 "${WK[@]}" /tmp/device_cuda --test-threads 1 > $OUT/device_cuda.log 2>&1; echo "device_cuda exit=$?" >> $OUT/device_cuda.log
tail -3 $OUT/device_cuda.log
