#!/usr/bin/env bash
# Session 62, call 1: ReduceByKey and ScanByKey through Vulkan with full
# tiles loaded as vec4s (QUADS, the new host choice through wgpu) against
# the word loads (QUADS=false, the code before, in the same binary) and the
# base build; 16 and 8 a thread with the quads; CUDA (unchanged kernels,
# the few-element kernel below 4) with CUB; then device_cuda.
set -u
OUT=$1
R=reduce_sum_u32
S=scan_sum_u32
B=target/nvc/s62/wk-demos-base.gz
PLAN="r-q=after:by_key:$R:vulkan r-w=after:by_key:$R:vulkan:QUADS=false r-q16=after:by_key:$R:vulkan:ITEMS=16u r-cuda=after:by_key:$R:cuda s-q=after:by_key:$S:vulkan s-w=after:by_key:$S:vulkan:QUADS=false s-q16=after:by_key:$S:vulkan:ITEMS=16u s-q8=after:by_key:$S:vulkan:ITEMS=8u s-cuda=after:by_key:$S:cuda r-base=$B:by_key:$R:vulkan s-base=$B:by_key:$S:vulkan r-q2=after:by_key:$R:vulkan s-q2=after:by_key:$S:vulkan" \
  CUB_ONLY=by_key LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=330 bash bench/ab-demos.sh $OUT
source bench/device-setup.sh >/dev/null 2>&1
rm -f /tmp/device_cuda
gunzip -c target/nvc/s62/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 150 "${WK[@]}" /tmp/device_cuda --test-threads 1 > $OUT/device_cuda.log 2>&1; echo "device_cuda exit=$?" >> $OUT/device_cuda.log
echo "== device_cuda" >> $OUT/ab.log
grep -E "^test .*(ok|FAILED)$|test result|exit=" $OUT/device_cuda.log | head -40 >> $OUT/ab.log
