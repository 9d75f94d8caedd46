#!/usr/bin/env bash
# Session 57, call 6: Nsight Compute of SegmentedReduce over segments of
# 65536 at 2^20 (16 segments) through CUDA: the committed fixed_reduce
# against CUB's DeviceSegmentedReduce::Sum on the same shape, for the
# remaining gap's cause (loads, L1 wavefronts and sectors, L2 traffic,
# warp stalls).
set -u
OUT=$1
BIN=/tmp/wk-ab
rm -rf $BIN && mkdir -p $BIN && tar -xzf target/wk-bench.tar.gz -C $BIN
source bench/device-setup.sh
nvcc -O3 -std=c++17 -arch=sm_90 -o $BIN/cub_ref bench/ref/cub_ref.cu > $OUT/cub.build.log 2>&1 || tail -5 $OUT/cub.build.log
M=smsp__sass_inst_executed_op_global_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_lg_cmd_read.sum,l1tex__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
S=(--section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis_Tables --metrics $M)
timeout 100 ncu "${S[@]}" -k regex:fixed_reduce --launch-count 1 "${WK[@]}" $BIN/wk-demos by_key --variant segmented_long_sum_u32 --backend cuda --log2 "20..=20" --warmup 0 --warmup-ms 0 --runs 1 2>&1 | grep -v "^==PROF==" > $OUT/ncu-wavekit.log
echo "wavekit rc=$?"
timeout 100 ncu "${S[@]}" -k regex:Segmented --launch-count 6 $BIN/cub_ref --only by_key --log2 20 20 --warmup 0 --warmup-ms 0 --runs 1 2>&1 | grep -v "^==PROF==" > $OUT/ncu-cub.log
echo "cub rc=$?"
