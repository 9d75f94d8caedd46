#!/usr/bin/env bash
# Session 61, call 9: does ReduceByKey's run-count look-back pay for the
# window walk through Vulkan as the operator scan did? reduce_sum_u32 at
# the default (WINDOW true) against WINDOW=false (thread 0's walk), Vulkan
# and CUDA, two rounds through Vulkan, with CUB.
set -u
OUT=$1
V=reduce_sum_u32
PLAN="win-vk=after:by_key:$V:vulkan walk-vk=after:by_key:$V:vulkan:WINDOW=false win=after:by_key:$V:cuda walk=after:by_key:$V:cuda:WINDOW=false win-vk2=after:by_key:$V:vulkan walk-vk2=after:by_key:$V:vulkan:WINDOW=false" \
  CUB_ONLY=by_key LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=200 bash bench/ab-demos.sh $OUT
