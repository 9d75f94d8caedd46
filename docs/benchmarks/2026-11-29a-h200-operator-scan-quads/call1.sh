#!/usr/bin/env bash
# Session 61, call 1: Scan::with_operator on scan.wgsl's vec4 tiles (SUM
# false: the operator in tile order) against the base (7ac087f:
# scan_op.wgsl, 256 x 12 blocked, 10 through wgpu), inclusive u32 max, and
# the u32 sum (lookback) both builds, CUDA and Vulkan at 2^20..2^26, with
# CUB (bench/ref/cub_ref.cu, built there) in the same call; then ncu of both max kernels at 2^24; device_cuda
# of this build.
set -u
OUT=$1
V=inclusive_max_u32
B=target/nvc/s61/wk-demos-base.gz
PLAN="after=after:scan:$V:cuda base=$B:scan:$V:cuda after-vk=after:scan:$V:vulkan base-vk=$B:scan:$V:vulkan sum=after:scan:lookback:cuda sum-base=$B:scan:lookback:cuda sum-vk=after:scan:lookback:vulkan sum-base-vk=$B:scan:lookback:vulkan after2=after:scan:$V:cuda base2=$B:scan:$V:cuda" \
  CUB_ONLY=scan LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=280 bash bench/ab-demos.sh $OUT
source bench/device-setup.sh >/dev/null 2>&1
BIN=/tmp/wk-ab
M=smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct,smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,launch__registers_per_thread,launch__occupancy_limit_registers,sm__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed
for b in wk-demos wk-demos-base; do
  echo "== ncu $b max 2^24" >> $OUT/ab.log
  timeout 60 ncu --metrics $M -k regex:scan_lookback --launch-count 1 "${WK[@]}" $BIN/$b scan --variant $V --backend cuda --log2 "24..=24" --warmup 0 --warmup-ms 0 --runs 1 2>&1 | grep -v "^==PROF==" | tail -20 >> $OUT/ab.log
done
rm -f /tmp/device_cuda
gunzip -c target/nvc/s61/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 150 "${WK[@]}" /tmp/device_cuda --test-threads 1 > $OUT/device_cuda.log 2>&1; echo "device_cuda exit=$?" >> $OUT/device_cuda.log
tail -3 $OUT/device_cuda.log >> $OUT/ab.log
