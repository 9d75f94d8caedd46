#!/usr/bin/env bash
# Session 63, call 5: ReduceByKey on CUDA with its full tiles loaded as
# lane-striped quads through the stash (STRIPED, 48 registers: 5
# workgroups an SM) against STRIPED=false (the base kernel, same binary)
# and the base build; at 12 a thread; with the block scan by shuffles.
# The compaction as it now ships (PartitionIf 256 x 20 on CUDA, full tiles
# without a test) against the base, CUDA and Vulkan. CUB; device_cuda.
set -u
OUT=$1
gunzip -c target/nvc/s63/base.gz > /tmp/base-demos && chmod +x /tmp/base-demos
B=/tmp/base-demos
R=by_key:reduce_sum_u32:cuda
PLAN="rk=after:$R rk-ns=after:$R:STRIPED=false rk-base=$B:$R rk12=after:$R:ITEMS=12u rk-sg=after:$R:SUBGROUP_SCAN=true pa=after:partition:half_u32:cuda pa-base=$B:partition:half_u32:cuda un=after:unique:runs_u32:cuda un-base=$B:unique:runs_u32:cuda rk2=after:$R rk-ns2=after:$R:STRIPED=false pa-vk=after:partition:half_u32:vulkan pa-vk-base=$B:partition:half_u32:vulkan un-vk=after:unique:runs_u32:vulkan un-vk-base=$B:unique:runs_u32:vulkan" \
  CUB_ONLY=partition,unique,by_key LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=330 bash bench/ab-demos.sh $OUT
source bench/device-setup.sh >/dev/null 2>&1
rm -f /tmp/device_cuda
gunzip -c target/nvc/s63/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 150 "${WK[@]}" /tmp/device_cuda --test-threads 1 > $OUT/device_cuda.log 2>&1; echo "device_cuda exit=$?" >> $OUT/device_cuda.log
echo "== device_cuda" >> $OUT/ab.log
grep -E "^test .*(ok|FAILED)$|test result|exit=" $OUT/device_cuda.log | head -40 >> $OUT/ab.log
