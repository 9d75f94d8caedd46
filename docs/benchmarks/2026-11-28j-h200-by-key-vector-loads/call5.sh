#!/usr/bin/env bash
# Session 55, call 5: Nsight Compute at 2^24 (CUDA) of PartitionIf and
# ReduceByKey (e1b9cae: 16-byte loads, 16 a thread) and of CUB's
# DevicePartition::If and DeviceReduce::ReduceByKey (cub_ref built here
# from bench/ref/cub_ref.cu, carried at target/nvc/s55/cub_ref).
set -u
OUT=$1
BIN=/tmp/wk-ab
rm -rf $BIN && mkdir -p $BIN && tar -xzf target/wk-bench.tar.gz -C $BIN
source bench/device-setup.sh
cub=$PWD/target/nvc/s55/cub_ref
S=(--section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --section InstructionStats --section MemoryWorkloadAnalysis --section SchedulerStats)
for d in partition:half_u32 by_key:reduce_sum_u32; do
  demo=${d%%:*}; v=${d##*:}
  echo "== ncu wavekit $demo $v 2^24"
  timeout 90 ncu "${S[@]}" --launch-count 8 "${WK[@]}" $BIN/wk-demos $demo --variant $v --backend cuda --log2 "24..=24" --warmup 0 --warmup-ms 0 --runs 1 2>&1 | grep -v "loop not unrolled" | grep -v "^==PROF==" > $OUT/ncu-$demo.log
  echo "rc=$?"; wc -l $OUT/ncu-$demo.log
  echo "== ncu CUB $demo 2^24"
  timeout 90 ncu "${S[@]}" --launch-count 8 $cub --log2 24 24 --warmup 0 --warmup-ms 0 --runs 1 --only $demo 2>&1 | grep -v "^==PROF==" > $OUT/ncu-cub-$demo.log
  echo "rc=$?"; wc -l $OUT/ncu-cub-$demo.log
done
