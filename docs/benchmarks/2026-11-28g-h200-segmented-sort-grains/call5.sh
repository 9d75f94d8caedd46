#!/usr/bin/env bash
# Session 54, call 5: the branch's SegmentedSort (after: four-way merge
# passes in 2048 workgroups) against merge passes in 1024 (m1024), CUDA and
# Vulkan, mixed and long segments, 2^20..2^26, with CUB; ncu of the long
# case at 2^24 (where its time goes); device_cuda.
set -u
OUT=$1
M=target/wk-demos-m1024.gz
PLAN="mx=after:segmented_sort:mixed_pairs:cuda mx-m1024=$M:segmented_sort:mixed_pairs:cuda lg=after:segmented_sort:long_pairs:cuda lg-m1024=$M:segmented_sort:long_pairs:cuda mx-vk=after:segmented_sort:mixed_pairs:vulkan mx-vk-m1024=$M:segmented_sort:mixed_pairs:vulkan lg-vk=after:segmented_sort:long_pairs:vulkan" \
  CUB_ONLY=segmented_sort LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=45 CUB_S=90 BUDGET_S=330 bash bench/ab-demos.sh $OUT
BIN=/tmp/wk-ab
source bench/device-setup.sh
echo "== ncu wavekit segmented_sort long_pairs 2^24 cuda"
timeout 90 ncu --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --launch-count 12 "${WK[@]}" $BIN/wk-demos segmented_sort --variant long_pairs --backend cuda --log2 "24..=24" --warmup 0 --warmup-ms 0 --runs 1 2>&1 | grep -v "loop not unrolled" | grep -v "^==PROF==" > $OUT/ncu-long.log
echo "rc=$?"
cd $BIN && "${WK[@]}" timeout 100 ./wk-device-cuda > $OUT/device-cuda.log 2>&1; echo "device_cuda rc=$?" >> $OUT/device-cuda.log
tail -3 $OUT/device-cuda.log
