#!/usr/bin/env bash
# Session 55, call 6: PartitionIf with its elements staged in workgroup
# memory (STAGE_VALUES, c1d00ef) at 256 x 32, 24 and 16 against the default
# (256 x 32 in registers), CUDA, 2^20..2^26, twice, with CUB; the same
# through Vulkan at 256 x 8 (wgpu's shape) staged and not.
set -u
OUT=$1
P=partition:half_u32
PLAN="pt=after:$P:cuda st32=after:$P:cuda:STAGE_VALUES=true st24=after:$P:cuda:STAGE_VALUES=true,ITEMS=24u st16=after:$P:cuda:STAGE_VALUES=true,ITEMS=16u pt2=after:$P:cuda st32b=after:$P:cuda:STAGE_VALUES=true st24b=after:$P:cuda:STAGE_VALUES=true,ITEMS=24u vk=after:$P:vulkan vk-st=after:$P:vulkan:STAGE_VALUES=true" \
  CUB_ONLY=partition LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 CUB_S=60 BUDGET_S=330 bash bench/ab-demos.sh $OUT
