#!/usr/bin/env bash
# Session 58, call 7: SegmentedScan without the carry's barrier after a
# segment's last tile against call 5's build (r5, 7455f71), fixed
# segments of 1024 and 65536, CUDA (with CUB's DeviceSegmentedScan, CCCL
# main) and Vulkan at 2^20..2^26; then device_cuda of this build.
set -u
OUT=$1
V=segmented_scan_u32,segmented_scan_long_u32
B=target/wk-demos-r5.gz
PLAN="after=after:by_key:$V:cuda r5=$B:by_key:$V:cuda after-vk=after:by_key:$V:vulkan r5-vk=$B:by_key:$V:vulkan" \
  LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=35 BUDGET_S=160 bash bench/ab-demos.sh $OUT
source bench/device-setup.sh >/dev/null 2>&1
echo "== CUB DeviceSegmentedScan (CCCL main): by_key 2^20..2^26" >> $OUT/ab.log
timeout 60 target/nvc/s58/cub_segscan --log2 20 26 --warmup 3 --warmup-ms 200 --runs 10 --only by_key \
  > $OUT/segscan.jsonl 2>> $OUT/ab.log; echo "cub_segscan exit=$?" >> $OUT/ab.log
gunzip -c target/nvc/s58/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 150 "${WK[@]}" /tmp/device_cuda --test-threads 1 > $OUT/device_cuda.log 2>&1; echo "device_cuda exit=$?" >> $OUT/device_cuda.log
tail -3 $OUT/device_cuda.log
