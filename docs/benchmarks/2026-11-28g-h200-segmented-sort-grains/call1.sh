#!/usr/bin/env bash
# Session 54, call 1: where SegmentedSort's time goes at mixed lengths (ncu,
# wavekit's kernels and CUB's, 2^24 pairs, CUDA); PartitionIf's BLOCK and
# ReduceByKey's ITEMS through CUDA at 2^22..2^24, with CUB.
set -u
OUT=$1
P=partition:half_u32
R=by_key:reduce_sum_u32
PLAN="pt=after:$P:cuda pt-b128=after:$P:cuda:BLOCK=128u pt-b512=after:$P:cuda:BLOCK=512u pt-b512-i16=after:$P:cuda:BLOCK=512u,ITEMS=16u pt-b128-i24=after:$P:cuda:BLOCK=128u,ITEMS=24u rbk=after:$R:cuda rbk-i8=after:$R:cuda:ITEMS=8u rbk-i16=after:$R:cuda:ITEMS=16u rbk-i20=after:$R:cuda:ITEMS=20u" \
  CUB_ONLY=partition,by_key LOG2_LO=22 LOG2_HI=24 RUNS=10 WARMUP=3 STEP_S=25 CUB_S=60 BUDGET_S=260 bash bench/ab-demos.sh $OUT
BIN=/tmp/wk-ab
source bench/device-setup.sh
S=(--section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --section InstructionStats)
echo "== ncu wavekit segmented_sort mixed_pairs 2^24 cuda"
timeout 120 ncu "${S[@]}" --launch-count 24 "${WK[@]}" $BIN/wk-demos segmented_sort --variant mixed_pairs --backend cuda --log2 "24..=24" --warmup 0 --warmup-ms 0 --runs 1 2>&1 | grep -v "loop not unrolled" | grep -v "^==PROF==" > $OUT/ncu-ss.log
echo "rc=$?"; wc -l $OUT/ncu-ss.log
echo "== ncu CUB segmented_sort 2^24"
cub=$BIN/cub_ref_built; [[ -x $cub ]] || cub=$BIN/cub_ref
timeout 120 ncu "${S[@]}" --launch-count 12 $cub --log2 24 24 --warmup 0 --warmup-ms 0 --runs 1 --only segmented_sort 2>&1 | grep -v "^==PROF==" > $OUT/ncu-cub-ss.log
echo "rc=$?"; wc -l $OUT/ncu-cub-ss.log
