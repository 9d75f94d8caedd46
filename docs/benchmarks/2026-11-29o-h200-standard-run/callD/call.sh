#!/usr/bin/env bash
# Session 67, call D (f8badcb's wk-demos, base.gz): Nsight Compute of the
# pair sort at 2^26 through CUDA, wavekit's kernels and CUB's; then
# issue 33's SegmentedSort at mixed lengths (segments of 1..64), CUDA and
# Vulkan, 2^20..2^26, with CUB's DeviceSegmentedSort on the same inputs.
set -u
OUT=$1
BIN=/tmp/wk-d
rm -rf $BIN && mkdir -p $BIN && gunzip -c target/nvc/s67/base.gz > $BIN/wk-demos && chmod +x $BIN/wk-demos
source bench/device-setup.sh
(nvcc -O3 -std=c++17 -arch=sm_90 -o $BIN/cub_ref bench/ref/cub_ref.cu > $BIN/cub.build.log 2>&1) &
CUB_PID=$!
S=(--section SpeedOfLight --section LaunchStats --section Occupancy --section InstructionStats --section WarpStateStats --section MemoryWorkloadAnalysis)
timeout 120 ncu "${S[@]}" --launch-count 8 "${WK[@]}" $BIN/wk-demos radix_sort --variant pairs --backend cuda --log2 "26..=26" --warmup 0 --warmup-ms 0 --runs 1 2>&1 | grep -v "loop not unrolled" | grep -v "^==PROF==" > $OUT/ncu-wavekit-pairs.log
echo "wavekit ncu rc=$?"
wait $CUB_PID; echo "cub build rc=$?"
timeout 120 ncu "${S[@]}" --launch-count 16 $BIN/cub_ref --log2 26 26 --warmup 0 --warmup-ms 0 --runs 1 --only radix_sort 2>&1 | grep -v "^==PROF==" > $OUT/ncu-cub-radix.log
echo "cub ncu rc=$?"
for be in cuda vulkan; do
  timeout 90 "${WK[@]}" $BIN/wk-demos segmented_sort --variant mixed_pairs --backend $be --log2 "20..=26" --warmup 5 --warmup-ms 200 --settle-ms 300 --runs 20 2>&1 | grep -E "^(ok|FAIL|==)" | tee -a $OUT/segmented.log
done
timeout 90 $BIN/cub_ref --log2 20 26 --warmup 5 --warmup-ms 200 --runs 20 --only segmented_sort 2>&1 | grep -E "^(ok|FAIL|==)" | tee -a $OUT/segmented.log
gzip -9 $OUT/ncu-*.log
