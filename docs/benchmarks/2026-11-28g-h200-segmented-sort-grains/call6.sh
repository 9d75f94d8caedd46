#!/usr/bin/env bash
# Session 54, call 6: the branch's last kernel code (after) against main
# (base, ec9de0a): SegmentedSort at mixed (1..=64) and long (1..=16384)
# segments, CUDA and Vulkan, 2^20..2^26, with CUB; FixedSegmentedSort seg16
# (its merge_tiles moved files) through CUDA; ncu of the long case at 2^24;
# device_cuda.
set -u
OUT=$1
B=target/wk-demos-base.gz
PLAN="mx=after:segmented_sort:mixed_pairs:cuda mx-base=$B:segmented_sort:mixed_pairs:cuda lg=after:segmented_sort:long_pairs:cuda lg-base=$B:segmented_sort:long_pairs:cuda mx-vk=after:segmented_sort:mixed_pairs:vulkan mx-vk-base=$B:segmented_sort:mixed_pairs:vulkan lg-vk=after:segmented_sort:long_pairs:vulkan cs=after:contact_sort:seg16:cuda cs-base=$B:contact_sort:seg16:cuda" \
  CUB_ONLY=segmented_sort LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=45 CUB_S=90 BUDGET_S=380 bash bench/ab-demos.sh $OUT
BIN=/tmp/wk-ab
source bench/device-setup.sh
echo "== ncu wavekit segmented_sort long_pairs 2^24 cuda"
timeout 60 ncu --section SpeedOfLight --launch-count 10 "${WK[@]}" $BIN/wk-demos segmented_sort --variant long_pairs --backend cuda --log2 "24..=24" --warmup 0 --warmup-ms 0 --runs 1 2>&1 | grep -v "loop not unrolled" | grep -v "^==PROF==" > $OUT/ncu-long.log
echo "rc=$?"
cd $BIN && "${WK[@]}" timeout 100 ./wk-device-cuda > $OUT/device-cuda.log 2>&1; echo "device_cuda rc=$?" >> $OUT/device-cuda.log
tail -3 $OUT/device-cuda.log
