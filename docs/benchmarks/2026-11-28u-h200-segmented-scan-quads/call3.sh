#!/usr/bin/env bash
# Session 59, call 3: balanced grids (rows of ceil(count / rows) rather
# than of 65535: no row of idle workgroups past 65535) against call 2's
# build (q59: the quads scan, rows of 65535), for the kernels that spill
# into y: SegmentedScan and SegmentedReduce over segments of 1024 (65536
# segments at 2^26), and the long scan (1024 segments) as a control, CUDA
# and Vulkan at 2^24..2^26, twice; then device_cuda of this build.
set -u
OUT=$1
V=segmented_scan_u32,segmented_sum_u32,segmented_scan_long_u32
B=target/wk-demos-q59.gz
PLAN="after=after:by_key:$V:cuda q59=$B:by_key:$V:cuda after-vk=after:by_key:$V:vulkan q59-vk=$B:by_key:$V:vulkan after2=after:by_key:$V:cuda q59-2=$B:by_key:$V:cuda after-vk2=after:by_key:$V:vulkan q59-vk2=$B:by_key:$V:vulkan" \
  LOG2_LO=24 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=200 bash bench/ab-demos.sh $OUT
source bench/device-setup.sh >/dev/null 2>&1
gunzip -c target/nvc/s59/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 150 "${WK[@]}" /tmp/device_cuda --test-threads 1 > $OUT/device_cuda.log 2>&1; echo "device_cuda exit=$?" >> $OUT/device_cuda.log
tail -3 $OUT/device_cuda.log
