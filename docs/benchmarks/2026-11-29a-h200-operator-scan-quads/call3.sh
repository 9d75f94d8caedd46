#!/usr/bin/env bash
# Session 61, call 3: the operator scan's lane scan with a constant bound
# (UNROLL: 7 steps, each under `d < size`; an experiment) against the loop
# to the subgroup size, inclusive u32 max, Vulkan and CUDA, two rounds.
set -u
OUT=$1
V=inclusive_max_u32
PLAN="loop-vk=after:scan:$V:vulkan unroll-vk=after:scan:$V:vulkan:UNROLL=true loop=after:scan:$V:cuda unroll=after:scan:$V:cuda:UNROLL=true loop-vk2=after:scan:$V:vulkan unroll-vk2=after:scan:$V:vulkan:UNROLL=true" \
  LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=200 bash bench/ab-demos.sh $OUT
