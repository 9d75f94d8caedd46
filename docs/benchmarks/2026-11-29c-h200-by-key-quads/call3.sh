#!/usr/bin/env bash
# Session 62, call 3: the final code (vec4 loads of full tiles on every
# back end; ScanByKey 12 a thread on CUDA) against the base build, two
# rounds, ReduceByKey and ScanByKey through Vulkan and CUDA, with CUB; then
# device_cuda.
set -u
OUT=$1
R=reduce_sum_u32
S=scan_sum_u32
B=target/nvc/s62/wk-demos-base.gz
PLAN="r-vk=after:by_key:$R:vulkan r-vk-base=$B:by_key:$R:vulkan s-vk=after:by_key:$S:vulkan s-vk-base=$B:by_key:$S:vulkan r-cuda=after:by_key:$R:cuda r-cuda-base=$B:by_key:$R:cuda s-cuda=after:by_key:$S:cuda s-cuda-base=$B:by_key:$S:cuda r-vk2=after:by_key:$R:vulkan r-vk-base2=$B:by_key:$R:vulkan s-vk2=after:by_key:$S:vulkan s-vk-base2=$B:by_key:$S:vulkan s-cuda2=after:by_key:$S:cuda s-cuda-base2=$B:by_key:$S:cuda" \
  CUB_ONLY=by_key LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=330 bash bench/ab-demos.sh $OUT
source bench/device-setup.sh >/dev/null 2>&1
rm -f /tmp/device_cuda
gunzip -c target/nvc/s62/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 150 "${WK[@]}" /tmp/device_cuda --test-threads 1 > $OUT/device_cuda.log 2>&1; echo "device_cuda exit=$?" >> $OUT/device_cuda.log
echo "== device_cuda" >> $OUT/ab.log
grep -E "^test .*(ok|FAILED)$|test result|exit=" $OUT/device_cuda.log | head -40 >> $OUT/ab.log
