#!/usr/bin/env bash
# Session 55, call 9: Nsight Compute of the radix sort's kernels (keys, 2^26,
# CUDA), wavekit's (b7b46a8) and CUB's, to compare the histogram kernels and
# the passes.
set -u
OUT=$1
BIN=/tmp/wk-ab
rm -rf $BIN && mkdir -p $BIN && tar -xzf target/wk-bench.tar.gz -C $BIN
source bench/device-setup.sh
cub=$PWD/target/nvc/s55/cub_ref
S=(--section SpeedOfLight --section LaunchStats --section Occupancy --section InstructionStats --section WarpStateStats)
timeout 100 ncu "${S[@]}" --launch-count 10 "${WK[@]}" $BIN/wk-demos radix_sort --variant keys --backend cuda --log2 "26..=26" --warmup 0 --warmup-ms 0 --runs 1 2>&1 | grep -v "loop not unrolled" | grep -v "^==PROF==" > $OUT/ncu-radix-keys.log
echo "rc=$?"
timeout 100 ncu "${S[@]}" --launch-count 10 $cub --log2 26 26 --warmup 0 --warmup-ms 0 --runs 1 --only radix_sort 2>&1 | grep -v "^==PROF==" > $OUT/ncu-cub-radix.log
echo "rc=$?"
