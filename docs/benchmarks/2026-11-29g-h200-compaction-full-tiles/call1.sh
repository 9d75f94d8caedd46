#!/usr/bin/env bash
# Session 63, call 1: Nsight Compute at the boost clocks and with warm
# caches (--clock-control none --cache-control none: the regime the
# benchmark's repeated calls run in) of the four families a few per cent
# short of CUB through CUDA (issue 35): PartitionIf at 2^22, ReduceByKey
# at 2^22, Unique at 2^23, AdjacentDifference at 2^24, each against CUB's
# kernel (the pack's cub_ref). Build: the pack of bf2e63e (e8d3aa0 changed
# no kernel).
set -u
OUT=$1
BIN=/tmp/wk-ab
rm -rf $BIN && mkdir -p $BIN && tar -xzf target/wk-bench.tar.gz -C $BIN
source bench/device-setup.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv
cub=$BIN/cub_ref
(nvcc -O3 -std=c++17 -arch=sm_90 -o $cub bench/ref/cub_ref.cu > $OUT/cub.build.log 2>&1; echo "cub built rc=$? $(date +%T)") &
BUILD=$!
S=(--clock-control none --cache-control none --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section SchedulerStats --section InstructionStats)
run() { # label, log2, wavekit demo, variant, wk kernel regex, cub demo, cub kernel regex
  local l=$1 p=$2 d=$3 v=$4 wk=$5 cd=$6 ck=$7
  echo "== $l CUB 2^$p $(date +%T)"
  timeout 100 ncu "${S[@]}" --kernel-name "regex:$ck" --launch-skip 2 --launch-count 2 $cub --log2 $p $p --warmup 2 --warmup-ms 0 --runs 3 --only $cd 2>&1 | grep -v "^==PROF==" > $OUT/ncu-$l-cub.log
  echo "rc=$? $(wc -l < $OUT/ncu-$l-cub.log) lines"
}
for l in partition22:22:partition:half_u32:select_lookback by_key22:22:by_key:reduce_sum_u32:reduce_by_key unique23:23:unique:runs_u32:select_lookback adjdiff24:24:adjacent_difference:left_u32:subtract_copy; do
  IFS=: read -r l p d v wk <<< "$l"
  echo "== $l wavekit 2^$p $(date +%T)"
  timeout 100 ncu "${S[@]}" --kernel-name "regex:$wk" --launch-skip 2 --launch-count 2 "${WK[@]}" $BIN/wk-demos $d --variant $v --backend cuda --log2 "$p..=$p" --warmup 2 --warmup-ms 0 --runs 3 2>&1 | grep -v "loop not unrolled" | grep -v "^==PROF==" > $OUT/ncu-$l-wk.log
  echo "rc=$? $(wc -l < $OUT/ncu-$l-wk.log) lines"
done
wait $BUILD
run partition22 22 partition half_u32 select_lookback partition SelectSweep
run by_key22 22 by_key reduce_sum_u32 reduce_by_key by_key ReduceByKeyKernel
run unique23 23 unique runs_u32 select_lookback unique SelectSweep
run adjdiff24 24 adjacent_difference left_u32 subtract_copy adjacent_difference DifferenceKernel
gzip -9 $OUT/*.log
