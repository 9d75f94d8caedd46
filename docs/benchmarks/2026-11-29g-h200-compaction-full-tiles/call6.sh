#!/usr/bin/env bash
# Session 63, call 6: ReduceByKey on CUDA with STRIPED, the values now
# loaded after the keys' exchange (40 registers: 6 workgroups an SM),
# against STRIPED=false (same binary) and the base build, twice; Unique
# through Vulkan at other shapes (its CUDA form is now 0.78 of CUDA's
# time at 2^26); CUB; device_cuda.
set -u
OUT=$1
gunzip -c target/nvc/s63/base.gz > /tmp/base-demos && chmod +x /tmp/base-demos
B=/tmp/base-demos
R=by_key:reduce_sum_u32:cuda
U=unique:runs_u32
PLAN="rk=after:$R rk-ns=after:$R:STRIPED=false rk-base=$B:$R un-vk=after:$U:vulkan un-vk24=after:$U:vulkan:ITEMS=24u un-vk32=after:$U:vulkan:ITEMS=32u un-vk12=after:$U:vulkan:ITEMS=12u un-vk-base=$B:$U:vulkan un=after:$U:cuda rk2=after:$R rk-ns2=after:$R:STRIPED=false rk-base2=$B:$R" \
  CUB_ONLY=unique,by_key LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=300 bash bench/ab-demos.sh $OUT
source bench/device-setup.sh >/dev/null 2>&1
rm -f /tmp/device_cuda
gunzip -c target/nvc/s63/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 150 "${WK[@]}" /tmp/device_cuda --test-threads 1 > $OUT/device_cuda.log 2>&1; echo "device_cuda exit=$?" >> $OUT/device_cuda.log
echo "== device_cuda" >> $OUT/ab.log
grep -E "^test .*(ok|FAILED)$|test result|exit=" $OUT/device_cuda.log | head -40 >> $OUT/ab.log
