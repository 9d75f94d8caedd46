#!/usr/bin/env bash
# Session 61, call 2: the operator scan on scan.wgsl's tiles (the host now
# reads BLOCK and QUADS) at QUADS 8 (default), 6 and 4 through CUDA and
# Vulkan, inclusive u32 max, and the u32 sum at 6 and 4 through Vulkan,
# 2^20..2^26, with CUB in the same call.
set -u
OUT=$1
V=inclusive_max_u32
PLAN="q8=after:scan:$V:cuda q6=after:scan:$V:cuda:QUADS=6u q4=after:scan:$V:cuda:QUADS=4u q8-vk=after:scan:$V:vulkan q6-vk=after:scan:$V:vulkan:QUADS=6u q4-vk=after:scan:$V:vulkan:QUADS=4u sum8-vk=after:scan:lookback:vulkan sum6-vk=after:scan:lookback:vulkan:QUADS=6u sum4-vk=after:scan:lookback:vulkan:QUADS=4u sum8=after:scan:lookback:cuda sum6=after:scan:lookback:cuda:QUADS=6u" \
  CUB_ONLY=scan LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=280 bash bench/ab-demos.sh $OUT
