#!/usr/bin/env bash
# Session 61, call 8: the final code. The operator scan through Vulkan now
# walks with thread 0 (the host's WINDOW false through wgpu) against the
# ordered window (WINDOW=true, the code before), inclusive u32 max, and
# CUDA, with CUB; then device_cuda of the final code (with a new
# non-commutative operator scan), and the same tests built with the
# window's operands swapped (look_back.wgsl's lb_window_combine), which
# must fail.
set -u
OUT=$1
V=inclusive_max_u32
PLAN="vk=after:scan:$V:vulkan window-vk=after:scan:$V:vulkan:WINDOW=true cuda=after:scan:$V:cuda sum-vk=after:scan:lookback:vulkan sum=after:scan:lookback:cuda vk2=after:scan:$V:vulkan window-vk2=after:scan:$V:vulkan:WINDOW=true" \
  CUB_ONLY=scan LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=200 bash bench/ab-demos.sh $OUT
source bench/device-setup.sh >/dev/null 2>&1
for t in device_cuda device_cuda_mutant; do
  rm -f /tmp/$t
  gunzip -c target/nvc/s61/$t.gz > /tmp/$t && chmod +x /tmp/$t
  timeout 150 "${WK[@]}" /tmp/$t --test-threads 1 > $OUT/$t.log 2>&1; echo "$t exit=$?" >> $OUT/$t.log
  echo "== $t" >> $OUT/ab.log
  grep -E "^test .*(ok|FAILED)$|test result|exit=|affine" $OUT/$t.log | head -40 >> $OUT/ab.log
done
