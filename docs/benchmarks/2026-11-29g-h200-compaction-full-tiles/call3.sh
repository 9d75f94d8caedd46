#!/usr/bin/env bash
# Session 63, call 3: the compaction's full tiles loaded without a test,
# the CUDA selections for 5 workgroups an SM, the CUDA partition's ranks
# from a bit an element for 4; PartitionIf and Unique against the base
# build (bf2e63e's pack, target/nvc/s63/base.gz), CUDA twice and Vulkan;
# CUB; then device_cuda.
set -u
OUT=$1
gunzip -c target/nvc/s63/base.gz > /tmp/base-demos && chmod +x /tmp/base-demos
B=/tmp/base-demos
PLAN="pa=after:partition:half_u32:cuda pa-base=$B:partition:half_u32:cuda un=after:unique:runs_u32:cuda un-base=$B:unique:runs_u32:cuda pa-vk=after:partition:half_u32:vulkan pa-vk-base=$B:partition:half_u32:vulkan un-vk=after:unique:runs_u32:vulkan un-vk-base=$B:unique:runs_u32:vulkan pa2=after:partition:half_u32:cuda pa-base2=$B:partition:half_u32:cuda un2=after:unique:runs_u32:cuda un-base2=$B:unique:runs_u32:cuda" \
  CUB_ONLY=partition,unique LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=330 bash bench/ab-demos.sh $OUT
source bench/device-setup.sh >/dev/null 2>&1
rm -f /tmp/device_cuda
gunzip -c target/nvc/s63/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 150 "${WK[@]}" /tmp/device_cuda --test-threads 1 > $OUT/device_cuda.log 2>&1; echo "device_cuda exit=$?" >> $OUT/device_cuda.log
echo "== device_cuda" >> $OUT/ab.log
grep -E "^test .*(ok|FAILED)$|test result|exit=" $OUT/device_cuda.log | head -40 >> $OUT/ab.log
