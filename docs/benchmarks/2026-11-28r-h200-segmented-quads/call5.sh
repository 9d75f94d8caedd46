#!/usr/bin/env bash
# Session 58, call 5: SegmentedScan built without bounds checks or the
# workgroup zeroing natively (pipelines_proven) against call 3's build
# (r3: bounds checked, zeroed), fixed segments of 1024 and 65536, CUDA at
# 2^20..2^26 with cub_ref's InclusiveSumByKey stand-in and CUB's own
# DeviceSegmentedScan (CCCL main, bench/ref/cub_segscan.cu); then
# device_cuda of this build.
set -u
OUT=$1
V=segmented_scan_u32,segmented_scan_long_u32
B=target/wk-demos-r3.gz
PLAN="after=after:by_key:$V:cuda r3=$B:by_key:$V:cuda" \
  CUB_ONLY=by_key LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=40 CUB_S=70 BUDGET_S=150 bash bench/ab-demos.sh $OUT
source bench/device-setup.sh >/dev/null 2>&1
echo "== CUB DeviceSegmentedScan (CCCL main): by_key 2^20..2^26" >> $OUT/ab.log
timeout 60 target/nvc/s58/cub_segscan --log2 20 26 --warmup 3 --warmup-ms 200 --runs 10 --only by_key \
  > $OUT/segscan.jsonl 2>> $OUT/ab.log; echo "cub_segscan exit=$?" >> $OUT/ab.log
gunzip -c target/nvc/s58/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 150 "${WK[@]}" /tmp/device_cuda --test-threads 1 > $OUT/device_cuda.log 2>&1; echo "device_cuda exit=$?" >> $OUT/device_cuda.log
tail -3 $OUT/device_cuda.log
