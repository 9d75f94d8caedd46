#!/usr/bin/env bash
# Session 59, call 1: SegmentedScan over segments of 1024 through CUDA,
# before any change (aeed5eb): times against CCCL main's
# DeviceSegmentedScan at 2^20..2^26, then Nsight Compute of both kernels
# at 2^24 (16384 segments) and 2^20 (1024 segments).
set -u
OUT=$1
V=segmented_scan_u32
PLAN="base=after:by_key:$V:cuda base-vk=after:by_key:$V:vulkan" \
  LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=35 BUDGET_S=80 bash bench/ab-demos.sh $OUT
source bench/device-setup.sh >/dev/null 2>&1
BIN=/tmp/wk-ab
echo "== CUB DeviceSegmentedScan (CCCL main): by_key 2^20..2^26" >> $OUT/ab.log
timeout 60 target/nvc/s59/cub_segscan --log2 20 26 --warmup 3 --warmup-ms 200 --runs 10 --only by_key \
  > $OUT/segscan.jsonl 2>> $OUT/ab.log; echo "cub_segscan exit=$?" >> $OUT/ab.log
M=smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_lg_cmd_read.sum,l1tex__data_pipe_lsu_wavefronts_mem_lg_cmd_write.sum,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem
S=(--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis_Tables --metrics $M)
for L in 24 20; do
  timeout 100 ncu "${S[@]}" -k regex:fixed_scan --launch-count 1 "${WK[@]}" $BIN/wk-demos by_key --variant $V --backend cuda --log2 "$L..=$L" --warmup 0 --warmup-ms 0 --runs 1 2>&1 | grep -v "^==PROF==" > $OUT/ncu-wavekit-$L.log
  echo "wavekit $L rc=$?"
  timeout 100 ncu "${S[@]}" -k regex:SegmentedScan --launch-count 1 target/nvc/s59/cub_segscan --only by_key --log2 $L $L --warmup 0 --warmup-ms 0 --runs 1 2>&1 | grep -v "^==PROF==" > $OUT/ncu-cub-$L.log
  echo "cub $L rc=$?"
done
