#!/usr/bin/env bash
# Session 65, call 3: 16c402f's pack (SORT_BLOCK: sort_chunk's threads apart
# from the merges'), MergeSort pairs through Vulkan at BLOCK x ITEMS with
# SORT_BLOCK threads sorting the first runs, by WAVEKIT_SHADER_PARAMS; CUDA's
# figure and CUB in the same call.
set -u
OUT=$1
P="vk-256x5=after:merge_sort:pairs_u32:vulkan"
for s in 128x9 128x9s256 128x9s512 256x5s512 256x5s1024 128x7s512 64x9s512 128x11s256 128x9s512b; do
  b=${s%%x*}; rest=${s#*x}; i=${rest%%s*}; sb=${rest#*s}; sb=${sb%b}
  prm="BLOCK=${b}u,ITEMS=${i}u"
  [[ $rest == *s* ]] && prm="$prm,SORT_BLOCK=${sb}u"
  P="$P vk-$s=after:merge_sort:pairs_u32:vulkan:$prm"
done
P="$P cu-ms=after:merge_sort:pairs_u32:cuda vk-256x5b=after:merge_sort:pairs_u32:vulkan"
PLAN="$P" CUB_ONLY=merge_sort LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=40 BUDGET_S=560 bash bench/ab-demos.sh $OUT
