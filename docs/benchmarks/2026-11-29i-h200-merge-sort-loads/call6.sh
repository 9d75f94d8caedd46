#!/usr/bin/env bash
# Session 64, call 6: tile sweeps by WAVEKIT_SHADER_PARAMS, one binary
# (8d88567's pack; its one difference from main, SCATTER_LOADS_FIRST, is off):
# MergeSort through Vulkan at 256 x 5 (default), 7, 9 with the whole tiles;
# PartitionIf through CUDA at 256 x 12, 16, 20 (default), 24; ReduceByKey
# through CUDA at 12, 16 (default), 20; CUB.
set -u
OUT=$1
P="vk-ms5=after:merge_sort:pairs_u32:vulkan vk-ms7=after:merge_sort:pairs_u32:vulkan:ITEMS=7u vk-ms9=after:merge_sort:pairs_u32:vulkan:ITEMS=9u cu-ms=after:merge_sort:pairs_u32:cuda"
for i in 20 12 16 24; do P="$P cu-part$i=after:partition:half_u32:cuda:ITEMS=${i}u"; done
for i in 16 12 20; do P="$P cu-rbk$i=after:by_key:reduce_sum_u32:cuda:ITEMS=${i}u"; done
P="$P vk-ms5b=after:merge_sort:pairs_u32:vulkan vk-ms7b=after:merge_sort:pairs_u32:vulkan:ITEMS=7u"
PLAN="$P" CUB_ONLY=merge_sort,partition,by_key LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=40 BUDGET_S=400 bash bench/ab-demos.sh $OUT
