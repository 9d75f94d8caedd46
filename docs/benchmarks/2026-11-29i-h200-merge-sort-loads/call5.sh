#!/usr/bin/env bash
# Session 64, call 5: the OneSweep scatter's workgroup reads first
# (SCATTER_LOADS_FIRST, 8d88567's pack: the switch off by default, set by
# WAVEKIT_SHADER_PARAMS here), keys and pairs, through Vulkan and CUDA,
# against the same binary without it; CUB.
set -u
OUT=$1
P=""
for v in pairs keys; do
  for b in vulkan cuda; do
    P="$P $b-$v-first=after:radix_sort:$v:$b:SCATTER_LOADS_FIRST=true $b-$v=after:radix_sort:$v:$b"
  done
done
P="$P vulkan-pairs-first2=after:radix_sort:pairs:vulkan:SCATTER_LOADS_FIRST=true vulkan-pairs2=after:radix_sort:pairs:vulkan"
PLAN="$P" CUB_ONLY=radix_sort LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=40 BUDGET_S=330 bash bench/ab-demos.sh $OUT
