#!/usr/bin/env bash
# Session 54, call 4: four-way merge passes with cleared chunk flags (after)
# against the first grains build (g1: two-way passes, call 3's `mx`/`lg`),
# and after's merge passes in 512 workgroups (m512); CUDA and Vulkan, mixed
# (1..=64) and long (1..=16384) segments, 2^20..2^26; CUB.
set -u
OUT=$1
G1=target/wk-demos-g1.gz
M=target/wk-demos-m512.gz
PLAN="mx=after:segmented_sort:mixed_pairs:cuda mx-g1=$G1:segmented_sort:mixed_pairs:cuda mx-m512=$M:segmented_sort:mixed_pairs:cuda lg=after:segmented_sort:long_pairs:cuda lg-g1=$G1:segmented_sort:long_pairs:cuda lg-m512=$M:segmented_sort:long_pairs:cuda mx-vk=after:segmented_sort:mixed_pairs:vulkan lg-vk=after:segmented_sort:long_pairs:vulkan" \
  CUB_ONLY=segmented_sort LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=45 CUB_S=90 BUDGET_S=360 bash bench/ab-demos.sh $OUT
