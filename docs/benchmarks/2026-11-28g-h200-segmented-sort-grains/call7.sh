#!/usr/bin/env bash
# Session 54, call 7: SegmentedSort at mixed lengths at 2^27 and 2^28 through
# CUDA with CUB (issue 33's range ends at 2^28), and again through Vulkan at
# 2^25..2^26 (calls 5 and 6 had out-of-line runs at 2^26 there).
set -u
OUT=$1
PLAN="mx=after:segmented_sort:mixed_pairs:cuda" CUB_ONLY=segmented_sort LOG2_LO=27 LOG2_HI=28 RUNS=10 WARMUP=3 STEP_S=200 CUB_S=150 BUDGET_S=330 bash bench/ab-demos.sh $OUT
PLAN="mx-vk=after:segmented_sort:mixed_pairs:vulkan mx-cu=after:segmented_sort:mixed_pairs:cuda mx-vk2=after:segmented_sort:mixed_pairs:vulkan" LOG2_LO=25 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=60 BUDGET_S=150 bash bench/ab-demos.sh $OUT
