#!/usr/bin/env bash
# Session 64, call 9: ReduceByKey through Vulkan with the native forms
# (STASHED_ENDS with STRIPED: full tiles loaded as lane-striped quads, then
# through workgroup memory) at 12, 16 and 20 a thread, by
# WAVEKIT_SHADER_PARAMS, against wgpu's default (items in registers, 12);
# CUDA's default beside them; CUB. ce3b8c0's pack.
set -u
OUT=$1
P="vk=after:by_key:reduce_sum_u32:vulkan cu=after:by_key:reduce_sum_u32:cuda"
for i in 12 16 20; do P="$P vk-striped$i=after:by_key:reduce_sum_u32:vulkan:STASHED_ENDS=true,STRIPED=true,ITEMS=${i}u"; done
P="$P vk-stashed12=after:by_key:reduce_sum_u32:vulkan:STASHED_ENDS=true vk2=after:by_key:reduce_sum_u32:vulkan"
PLAN="$P" CUB_ONLY=by_key LOG2_LO=20 LOG2_HI=25 RUNS=10 WARMUP=3 STEP_S=40 BUDGET_S=240 bash bench/ab-demos.sh $OUT
