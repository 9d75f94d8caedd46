#!/usr/bin/env bash
# Session 62, call 4: ScanByKey's store as vec4 quads through workgroup
# memory (store_quads) against block::store_transpose's words (the build
# of call 3, bb3a6ab, carried as wk-demos-loads.gz), through Vulkan and
# CUDA, two rounds; the block scan in workgroup memory through Vulkan
# (SUBGROUP_SCAN=false) as a probe; ReduceByKey through Vulkan once (its
# kernel binds the new view but does not use it); then device_cuda.
set -u
OUT=$1
R=reduce_sum_u32
S=scan_sum_u32
L=target/nvc/s62/wk-demos-loads.gz
PLAN="s-vk=after:by_key:$S:vulkan s-vk-loads=$L:by_key:$S:vulkan s-cuda=after:by_key:$S:cuda s-cuda-loads=$L:by_key:$S:cuda s-vk-noshfl=after:by_key:$S:vulkan:SUBGROUP_SCAN=false r-vk=after:by_key:$R:vulkan r-vk-loads=$L:by_key:$R:vulkan s-vk2=after:by_key:$S:vulkan s-vk-loads2=$L:by_key:$S:vulkan s-cuda2=after:by_key:$S:cuda s-cuda-loads2=$L:by_key:$S:cuda" \
  CUB_ONLY=by_key LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=300 bash bench/ab-demos.sh $OUT
source bench/device-setup.sh >/dev/null 2>&1
rm -f /tmp/device_cuda
gunzip -c target/nvc/s62/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 150 "${WK[@]}" /tmp/device_cuda --test-threads 1 > $OUT/device_cuda.log 2>&1; echo "device_cuda exit=$?" >> $OUT/device_cuda.log
echo "== device_cuda" >> $OUT/ab.log
grep -E "^test .*(ok|FAILED)$|test result|exit=" $OUT/device_cuda.log | head -40 >> $OUT/ab.log
