#!/usr/bin/env bash
# Device call 6 of 2026-11-27h (issue 35): Nsight Compute on ScanByKey and
# ReduceByKey at 2^24 (u32 keys, sum), wavekit's kernels (main's code,
# 554251b) and CUB's, to find what holds by-key at 0.55x of CUB.
OUT=${1:?OUT}
source bench/device-setup.sh
BIN=/tmp/wk-ab; rm -rf $BIN; mkdir -p $BIN; tar -xzf target/wk-bench.tar.gz -C $BIN
(nvcc -O3 -std=c++17 -arch=sm_90 -o $BIN/cub_built bench/ref/cub_ref.cu >$BIN/cub.log 2>&1) ; CUB=$BIN/cub_built; [[ -x $CUB ]] || CUB=$BIN/cub_ref
S=(--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis --section SchedulerStats)
for v in scan_sum_u32 reduce_sum_u32; do
  echo "== ncu wavekit by_key $v 2^24"
  timeout 150 ncu "${S[@]}" --kernel-name regex:"by_key|heads" --launch-count 4 \
    "${WK[@]}" $BIN/wk-demos by_key --variant $v --backend cuda --log2 "24..=24" --warmup 0 --warmup-ms 0 --runs 1 2>&1 | grep -v "^==PROF==" | tail -n 400
done
echo "== ncu CUB by_key 2^24"
timeout 150 ncu "${S[@]}" --kernel-name regex:"ByKey|Init" --launch-count 6 $CUB --log2 24 24 --only by_key --warmup 0 --warmup-ms 0 --runs 1 2>&1 | grep -v "^==PROF==" | tail -n 600
