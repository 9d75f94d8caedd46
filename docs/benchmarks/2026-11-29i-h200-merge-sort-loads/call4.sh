#!/usr/bin/env bash
# Session 64, call 4: MergeSort with full tiles moved untested (ad949b3)
# against the loads-first build (0241207, m0241.gz), CUDA and Vulkan, with
# CUB; then Nsight Compute (boost clocks, warm caches) of the radix pair
# sort's pass kernel at 2^26 against CUB's onesweep kernel.
set -u
OUT=$1
B=target/nvc/s64/m0241.gz
P="vk=after:merge_sort:pairs_u32:vulkan vk-prev=$B:merge_sort:pairs_u32:vulkan cu=after:merge_sort:pairs_u32:cuda cu-prev=$B:merge_sort:pairs_u32:cuda"
PLAN="$P" CUB_ONLY=merge_sort,radix_sort LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=45 BUDGET_S=200 bash bench/ab-demos.sh $OUT
BIN=/tmp/wk-ab
source bench/device-setup.sh >/dev/null 2>&1
cub=$BIN/cub_ref_built; [[ -x $cub ]] || cub=$BIN/cub_ref
S=(--clock-control none --cache-control none --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis --section SchedulerStats --section InstructionStats --section SourceCounters)
echo "== ncu wavekit pairs 2^26 $(date +%T)"
timeout 150 ncu "${S[@]}" --kernel-name regex:onesweep --launch-skip 4 --launch-count 2 "${WK[@]}" $BIN/wk-demos radix_sort --variant pairs --backend cuda --log2 "26..=26" --warmup 1 --warmup-ms 0 --runs 1 2>&1 | grep -v "loop not unrolled" | grep -v "^==PROF==" > $OUT/ncu-pairs26-wk.log
echo "rc=$? $(wc -l < $OUT/ncu-pairs26-wk.log) lines"
echo "== ncu CUB pairs 2^26 $(date +%T)"
timeout 150 ncu "${S[@]}" --kernel-name regex:Onesweep --launch-skip 0 --launch-count 12 $cub --log2 26 26 --warmup 0 --warmup-ms 0 --runs 1 --only radix_sort 2>&1 | grep -v "^==PROF==" > $OUT/ncu-pairs26-cub.log
echo "rc=$? $(wc -l < $OUT/ncu-pairs26-cub.log) lines"
gzip -9 $OUT/ncu-*.log
