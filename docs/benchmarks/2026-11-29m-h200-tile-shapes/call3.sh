#!/usr/bin/env bash
# Session 66, call 3: AdjacentDifference at 4 against 8 a thread, and Unique
# at 256 x 20 against 256 x 16, through CUDA and Vulkan, two rounds each, by
# WAVEKIT_SHADER_PARAMS on one binary (9304c50), CUB in the same call.
set -u
OUT=$1
P=""
for r in 1 2; do
  P="$P cu-adjdiff-8-r$r=after:adjacent_difference:left_u32:cuda cu-adjdiff-4-r$r=after:adjacent_difference:left_u32:cuda:ITEMS=4u"
  P="$P cu-unique-16-r$r=after:unique:runs_u32:cuda cu-unique-20-r$r=after:unique:runs_u32:cuda:ITEMS=20u cu-unique-24-r$r=after:unique:runs_u32:cuda:ITEMS=24u"
  P="$P vk-adjdiff-8-r$r=after:adjacent_difference:left_u32:vulkan vk-adjdiff-4-r$r=after:adjacent_difference:left_u32:vulkan:ITEMS=4u"
  P="$P vk-unique-12-r$r=after:unique:runs_u32:vulkan vk-unique-20-r$r=after:unique:runs_u32:vulkan:ITEMS=20u"
done
PLAN="$P" CUB_ONLY=unique,adjacent_difference LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=25 CUB_S=60 BUDGET_S=500 bash bench/ab-demos.sh $OUT
