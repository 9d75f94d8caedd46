#!/usr/bin/env bash
# Session 54, call 2: SegmentedSort's short segments in grains (sort_short,
# 8 pairs a lane, groups of 1-8 lanes) and the chunk sort in at most 1024
# workgroups, against base (ec9de0a), CUDA and Vulkan, 2^20..2^26, with CUB;
# ncu of the new kernels at 2^24; device_cuda.
set -u
OUT=$1
PLAN="ss-base-cu=target/wk-demos-base.gz:segmented_sort:mixed_pairs:cuda ss-cu=after:segmented_sort:mixed_pairs:cuda ss-base-vk=target/wk-demos-base.gz:segmented_sort:mixed_pairs:vulkan ss-vk=after:segmented_sort:mixed_pairs:vulkan" \
  CUB_ONLY=segmented_sort LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=45 CUB_S=60 BUDGET_S=250 bash bench/ab-demos.sh $OUT
BIN=/tmp/wk-ab
source bench/device-setup.sh
S=(--section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --section InstructionStats)
echo "== ncu wavekit segmented_sort mixed_pairs 2^24 cuda (new)"
timeout 100 ncu "${S[@]}" --launch-count 6 "${WK[@]}" $BIN/wk-demos segmented_sort --variant mixed_pairs --backend cuda --log2 "24..=24" --warmup 0 --warmup-ms 0 --runs 1 2>&1 | grep -v "loop not unrolled" | grep -v "^==PROF==" > $OUT/ncu-ss.log
echo "rc=$?"
cd $BIN && "${WK[@]}" timeout 100 ./wk-device-cuda > $OUT/device-cuda.log 2>&1; echo "device_cuda rc=$?" >> $OUT/device-cuda.log
tail -3 $OUT/device-cuda.log
