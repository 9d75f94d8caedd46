#!/usr/bin/env bash
# Session 65, call 1: one binary (HEAD's pack), tiles by WAVEKIT_SHADER_PARAMS:
# MergeSort pairs through Vulkan at BLOCK x ITEMS (256 x 5 the library's),
# the operator scan (inclusive u32 max) through Vulkan at BLOCK 128/256/512; CUB.
set -u
OUT=$1
P="vk-ms256x5=after:merge_sort:pairs_u32:vulkan"
for s in 512x5 512x4 512x6 512x7 1024x3 1024x4 1024x5 128x9; do
  b=${s%x*}; i=${s#*x}
  P="$P vk-ms$s=after:merge_sort:pairs_u32:vulkan:BLOCK=${b}u,ITEMS=${i}u"
done
P="$P cu-ms=after:merge_sort:pairs_u32:cuda vk-ms256x5b=after:merge_sort:pairs_u32:vulkan"
P="$P vk-max256=after:scan:inclusive_max_u32:vulkan vk-max128=after:scan:inclusive_max_u32:vulkan:BLOCK=128u vk-max512=after:scan:inclusive_max_u32:vulkan:BLOCK=512u cu-max=after:scan:inclusive_max_u32:cuda"
PLAN="$P" CUB_ONLY=merge_sort,scan LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=40 BUDGET_S=540 bash bench/ab-demos.sh $OUT
