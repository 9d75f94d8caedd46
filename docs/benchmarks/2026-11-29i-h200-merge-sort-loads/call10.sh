#!/usr/bin/env bash
# Session 64, call 10: ReduceByKey through Vulkan with the counted heads'
# keys loaded before they are stored (the pack) against ce3b8c0's build
# (bce3b.gz), two rounds each; CUDA beside them (its form is unchanged); CUB.
set -u
OUT=$1
B=target/nvc/s64/bce3b.gz
P="vk=after:by_key:reduce_sum_u32:vulkan vk-base=$B:by_key:reduce_sum_u32:vulkan vk2=after:by_key:reduce_sum_u32:vulkan vk-base2=$B:by_key:reduce_sum_u32:vulkan cu=after:by_key:reduce_sum_u32:cuda"
PLAN="$P" CUB_ONLY=by_key LOG2_LO=20 LOG2_HI=25 RUNS=10 WARMUP=3 STEP_S=40 BUDGET_S=200 bash bench/ab-demos.sh $OUT
