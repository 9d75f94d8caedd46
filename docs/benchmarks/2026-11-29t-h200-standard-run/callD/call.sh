#!/usr/bin/env bash
# Session 69, call D: issue 33's standard run, part 3 (5c62576's build): the
# segmented sorts against CUB in one call (call B's CUB step ran out of time
# before DeviceSegmentedSort): FixedSegmentedSort (contact_sort seg32, seg16,
# seg8) through CUDA 2^16..2^28 with CUB on the same sizes; SegmentedSort at
# mixed lengths (1..64) through CUDA and Vulkan 2^20..2^26 with CUB; then
# tests/device_cuda.rs at 5c62576.
set -u
OUT=$1
PLAN="cu=after:contact_sort:seg32,seg16,seg8:cuda" \
  CUB_ONLY=contact_sort,segmented_sort LOG2_LO=16 LOG2_HI=28 RUNS=20 WARMUP=5 STEP_S=150 CUB_S=150 BUDGET_S=260 bash bench/ab-demos.sh $OUT
BIN=/tmp/wk-ab
source bench/device-setup.sh
for be in cuda vulkan; do
  timeout 90 "${WK[@]}" $BIN/wk-demos segmented_sort --variant mixed_pairs --backend $be --log2 "20..=26" --warmup 5 --warmup-ms 200 --settle-ms 300 --runs 20 2>&1 | grep -E "^(ok|FAIL|==)" | tee -a $OUT/segmented.log
done
gunzip -c target/nvc/s69d/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 150 "${WK[@]}" /tmp/device_cuda --test-threads 1 > "$OUT/device-cuda.log" 2>&1
echo "device_cuda rc=$?"; grep -E "^test |test result|FAILED|panicked" "$OUT/device-cuda.log" | tail -30
grep -c FAIL $OUT/ab.log $OUT/segmented.log
