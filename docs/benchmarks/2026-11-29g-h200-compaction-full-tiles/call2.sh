#!/usr/bin/env bash
# Session 63, call 2: the compaction's ranks from a bit an element
# (RANK_BITS, natively) and the CUDA partition for 4 workgroups an SM,
# against the base build (bf2e63e's pack, target/nvc/s63/base.gz), with
# RANK_BITS=false for Unique; through Vulkan RANK_BITS=true tried; the
# reduction by key with its block scan by shuffles (SUBGROUP_SCAN=true)
# and at 12 a thread; CUB; then device_cuda.
set -u
OUT=$1
gunzip -c target/nvc/s63/base.gz > /tmp/base-demos && chmod +x /tmp/base-demos
B=/tmp/base-demos
PLAN="pa=after:partition:half_u32:cuda pa-base=$B:partition:half_u32:cuda un=after:unique:runs_u32:cuda un-nobits=after:unique:runs_u32:cuda:RANK_BITS=false un-base=$B:unique:runs_u32:cuda pa-vk=after:partition:half_u32:vulkan pa-vk-bits=after:partition:half_u32:vulkan:RANK_BITS=true rk=after:by_key:reduce_sum_u32:cuda rk-sg=after:by_key:reduce_sum_u32:cuda:SUBGROUP_SCAN=true rk-sg12=after:by_key:reduce_sum_u32:cuda:SUBGROUP_SCAN=true,ITEMS=12u pa2=after:partition:half_u32:cuda pa-base2=$B:partition:half_u32:cuda" \
  CUB_ONLY=partition,unique,by_key LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=330 bash bench/ab-demos.sh $OUT
source bench/device-setup.sh >/dev/null 2>&1
rm -f /tmp/device_cuda
gunzip -c target/nvc/s63/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 150 "${WK[@]}" /tmp/device_cuda --test-threads 1 > $OUT/device_cuda.log 2>&1; echo "device_cuda exit=$?" >> $OUT/device_cuda.log
echo "== device_cuda" >> $OUT/ab.log
grep -E "^test .*(ok|FAILED)$|test result|exit=" $OUT/device_cuda.log | head -40 >> $OUT/ab.log
