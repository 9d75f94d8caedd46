#!/usr/bin/env bash
# Device call 7 of 2026-11-27l (issue 35): Nsight Compute on TopK at 2^26
# f32 keys (k = 64 and 1024), wavekit's kernels (8035c65) and CUB's
# DeviceTopK (CCCL 13.2), to find where the new TopK's 0.52 ms goes.
OUT=${1:?OUT}
source bench/device-setup.sh
BIN=/tmp/wk-ab; rm -rf $BIN; mkdir -p $BIN; tar -xzf target/wk-bench.tar.gz -C $BIN
S=(--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis --section SchedulerStats)
for v in largest_f32_k64 largest_f32_k1024; do
  echo "== ncu wavekit top_k $v 2^26"
  timeout 200 ncu "${S[@]}" --kernel-name regex:"init|select_pass" --launch-count 4 \
    "${WK[@]}" $BIN/wk-demos top_k --variant $v --backend cuda --log2 "26..=26" --warmup 0 --warmup-ms 0 --runs 1 2>&1 | grep -v "^==PROF==" | tail -n 400
done
echo "== ncu CUB DeviceTopK 2^26"
timeout 150 ncu "${S[@]}" --launch-count 8 $BIN/cub_topk --log2 26 26 --only top_k --warmup 0 --warmup-ms 0 --runs 1 2>&1 | grep -v "^==PROF==" | tail -n 700
