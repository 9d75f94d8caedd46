#!/usr/bin/env bash
# Session 54, call 8: MergeSort through Vulkan with its per-thread loops
# unrolled in the text (after) at ITEMS 3 (wgpu's default), 5, 7, 11 and 17,
# against base (ec9de0a: loops, 256 x 3); CUDA's (unchanged) and CUB for
# the ratio; 2^20..2^24.
set -u
OUT=$1
B=target/wk-demos-base.gz
M=merge_sort:pairs_u32:vulkan
PLAN="vk-base=$B:$M vk3=after:$M vk5=after:$M:ITEMS=5u vk7=after:$M:ITEMS=7u vk11=after:$M:ITEMS=11u vk17=after:$M:ITEMS=17u vk-base7=$B:$M:ITEMS=7u cu=after:merge_sort:pairs_u32:cuda" \
  CUB_ONLY=merge_sort LOG2_LO=20 LOG2_HI=24 RUNS=10 WARMUP=3 STEP_S=40 CUB_S=60 BUDGET_S=330 bash bench/ab-demos.sh $OUT
