#!/usr/bin/env bash
# Device call 5 of 2026-11-27p (issue 35): ReduceByKey with the stashed run
# ends on CUDA at 10, 11, 12 and 13 a thread against CUB (ab.log); Nsight
# Compute on ReduceByKey at 2^24, wavekit's kernel and CUB's (ncu.log); the
# kernels of one TopK call at 2^20, k = 64 and 1024, and CUB's DeviceTopK
# (ncu-topk.log: what the fixed cost at small n is).
OUT=${1:?OUT}
R=reduce_sum_u32
PLAN="i12=after:by_key:$R:cuda i10=after:by_key:$R:cuda:ITEMS=10u i11=after:by_key:$R:cuda:ITEMS=11u i13=after:by_key:$R:cuda:ITEMS=13u i12-again=after:by_key:$R:cuda" \
  CUB_ONLY=by_key LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=40 BUDGET_S=200 bash bench/ab-demos.sh $OUT >/dev/null 2>&1
source bench/device-setup.sh
BIN=/tmp/wk-ab
S=(--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis --section SchedulerStats --section InstructionStats)
{
  echo "== ncu wavekit by_key reduce_sum_u32 2^24"
  timeout 100 ncu "${S[@]}" --kernel-name regex:"reduce_by_key" --launch-count 1 \
    "${WK[@]}" $BIN/wk-demos by_key --variant reduce_sum_u32 --backend cuda --log2 "24..=24" --warmup 0 --warmup-ms 0 --runs 1 2>&1 | grep -v "^==PROF==" | grep -v "loop not unrolled" | tail -n 250
  echo "== ncu CUB ReduceByKey 2^24"
  timeout 100 ncu "${S[@]}" --kernel-name regex:"DeviceReduceByKeyKernel" --launch-count 1 \
    $BIN/cub_ref_built --log2 24 24 --only by_key --warmup 0 --warmup-ms 0 --runs 1 2>&1 | grep -v "^==PROF==" | tail -n 250
} > $OUT/ncu.log 2>&1
{
  for v in largest_f32_k64 largest_f32_k1024; do
    echo "== ncu wavekit top_k $v 2^20 (every kernel of the first calls)"
    timeout 100 ncu --section SpeedOfLight --section LaunchStats --launch-count 12 \
      "${WK[@]}" $BIN/wk-demos top_k --variant $v --backend cuda --log2 "20..=20" --warmup 0 --warmup-ms 0 --runs 1 2>&1 | grep -v "loop not unrolled" | grep -E "^  [a-z_A-Z].*\(|Duration|Grid Size|Block Size|Registers Per|Compute \(SM\) Throughput|DRAM Throughput" 
  done
  echo "== ncu CUB DeviceTopK 2^20"
  timeout 100 ncu --section SpeedOfLight --section LaunchStats --launch-count 12 \
    $BIN/cub_topk --log2 20 20 --warmup 0 --warmup-ms 0 --runs 1 --only top_k 2>&1 | grep -E "^  [a-z_A-Z].*\(|Duration|Grid Size|Block Size|Registers Per|Compute \(SM\) Throughput|DRAM Throughput"
} > $OUT/ncu-topk.log 2>&1
