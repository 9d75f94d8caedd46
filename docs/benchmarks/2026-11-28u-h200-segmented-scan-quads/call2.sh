#!/usr/bin/env bash
# Session 59, call 2: SegmentedScan by vec4 quads (tiles on 16-byte
# boundaries, whole quads loaded and stored as vec4s) against call 1's
# build (b59 = aeed5eb), fixed segments of 1024 and 65536, CUDA (with
# CCCL main's DeviceSegmentedScan) and Vulkan at 2^20..2^26; Nsight
# Compute of both kernels at 2^24 over segments of 1024; then device_cuda
# of this build.
set -u
OUT=$1
V=segmented_scan_u32,segmented_scan_long_u32
B=target/wk-demos-b59.gz
PLAN="after=after:by_key:$V:cuda b59=$B:by_key:$V:cuda after-vk=after:by_key:$V:vulkan b59-vk=$B:by_key:$V:vulkan" \
  LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=35 BUDGET_S=160 bash bench/ab-demos.sh $OUT
source bench/device-setup.sh >/dev/null 2>&1
BIN=/tmp/wk-ab
echo "== CUB DeviceSegmentedScan (CCCL main): by_key 2^20..2^26" >> $OUT/ab.log
timeout 60 target/nvc/s59/cub_segscan --log2 20 26 --warmup 3 --warmup-ms 200 --runs 10 --only by_key \
  > $OUT/segscan.jsonl 2>> $OUT/ab.log; echo "cub_segscan exit=$?" >> $OUT/ab.log
M=smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,launch__registers_per_thread
S=(--section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --metrics $M)
L=24
timeout 60 ncu "${S[@]}" -k regex:fixed_scan --launch-count 1 "${WK[@]}" $BIN/wk-demos by_key --variant segmented_scan_u32 --backend cuda --log2 "$L..=$L" --warmup 0 --warmup-ms 0 --runs 1 2>&1 | grep -v "^==PROF==" > $OUT/ncu-wavekit-$L.log
echo "wavekit $L rc=$?"
timeout 60 ncu "${S[@]}" -k regex:device_segmented_scan --launch-count 1 target/nvc/s59/cub_segscan --only by_key --log2 $L $L --warmup 0 --warmup-ms 0 --runs 1 2>&1 | grep -v "^==PROF==" > $OUT/ncu-cub-$L.log
echo "cub $L rc=$?"
gunzip -c target/nvc/s59/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 150 "${WK[@]}" /tmp/device_cuda --test-threads 1 > $OUT/device_cuda.log 2>&1; echo "device_cuda exit=$?" >> $OUT/device_cuda.log
tail -3 $OUT/device_cuda.log
