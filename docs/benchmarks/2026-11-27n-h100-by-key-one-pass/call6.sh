#!/usr/bin/env bash
# Device call 6 of 2026-11-27n (issue 35): the shipped build (ReduceByKey in
# one pass, 12 a thread; TopK's pass kernel at 40 registers, GROUPS 792 on
# CUDA) against CUB, CUDA and Vulkan, 2^20..2^26 (ab.log); then Nsight
# Compute on ReduceByKey at 2^24, wavekit's kernel and CUB's, to say what
# holds the reduction below CUB (ncu.log); then tests/device_cuda.rs.
OUT=${1:?OUT}
V=largest_f32_k64,largest_f32_k1024
PLAN="bykey-cuda=after:by_key:reduce_sum_u32,scan_sum_u32:cuda bykey-vk=after:by_key:reduce_sum_u32,scan_sum_u32:vulkan topk-cuda=after:top_k:$V:cuda topk-vk=after:top_k:$V:vulkan" \
  CUB_ONLY=by_key,top_k LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=100 BUDGET_S=220 bash bench/ab-demos.sh $OUT >/dev/null 2>&1
source bench/device-setup.sh
BIN=/tmp/wk-ab
S=(--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis --section SchedulerStats --section InstructionStats)
{
  echo "== ncu wavekit by_key reduce_sum_u32 2^24"
  timeout 120 ncu "${S[@]}" --kernel-name regex:"reduce_by_key" --launch-count 1 \
    "${WK[@]}" $BIN/wk-demos by_key --variant reduce_sum_u32 --backend cuda --log2 "24..=24" --warmup 0 --warmup-ms 0 --runs 1 2>&1 | grep -v "^==PROF==" | tail -n 250
  echo "== ncu CUB ReduceByKey 2^24"
  timeout 120 ncu "${S[@]}" --kernel-name regex:"DeviceReduceByKeyKernel" --launch-count 1 \
    $BIN/cub_ref_built --log2 24 24 --only by_key --warmup 0 --warmup-ms 0 --runs 1 2>&1 | grep -v "^==PROF==" | tail -n 250
} > $OUT/ncu.log 2>&1
cd $BIN && env LD_LIBRARY_PATH=/opt/wk/usr/lib/x86_64-linux-gnu WAVEKIT_LIBDEVICE=$OLDPWD/.llvm-debs/libdevice.10.bc XDG_RUNTIME_DIR=/tmp/wavekit-runtime ./wk-device-cuda > $OUT/device-cuda.log 2>&1
tail -3 $OUT/device-cuda.log
