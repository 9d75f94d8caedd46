#!/usr/bin/env bash
# Session 58, call 1: SegmentedReduce by vec4 quads (segmented_reduce.wgsl,
# COMMUTATIVE for +) against stop 57's (c2990d2, scalar loads, a shuffle
# tree a group), fixed segments of 1024 and 65536, CUDA with CUB and
# Vulkan at 2^20..2^26, the quads' GROUPS at 2 and 8 besides 4; then
# device_cuda (conformance through CUDA) of this build.
set -u
OUT=$1
V=segmented_sum_u32,segmented_long_sum_u32
B=target/wk-demos-c29.gz
PLAN="after=after:by_key:$V:cuda base=$B:by_key:$V:cuda g8=after:by_key:$V:cuda:GROUPS=8u g2=after:by_key:$V:cuda:GROUPS=2u" \
  CUB_ONLY=by_key LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 CUB_S=70 BUDGET_S=190 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab1.log
PLAN="after-vk=after:by_key:$V:vulkan base-vk=$B:by_key:$V:vulkan" \
  LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=40 BUDGET_S=90 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab2.log
source bench/device-setup.sh >/dev/null 2>&1
gunzip -c target/nvc/s58/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 150 "${WK[@]}" /tmp/device_cuda --test-threads 1 > $OUT/device_cuda.log 2>&1; echo "device_cuda exit=$?" >> $OUT/device_cuda.log
tail -3 $OUT/device_cuda.log
