#!/usr/bin/env bash
# Session 65, call 4: HEAD's pack (MergeSort through wgpu at 128 x 9 with
# sort_chunk at 512 threads; HIGH_LEADER off by default) against base.gz
# (2559d1b, 256 x 5): MergeSort pairs through Vulkan, two rounds, and at
# 2^10..2^19 once; CUDA's figure; the radix sort with HIGH_LEADER on and off
# by WAVEKIT_SHADER_PARAMS, through CUDA and Vulkan, two rounds of the
# pairs; CUB.
set -u
OUT=$1
B=target/nvc/s65/base.gz
P="vk-ms=after:merge_sort:pairs_u32:vulkan vk-ms-base=$B:merge_sort:pairs_u32:vulkan cu-ms=after:merge_sort:pairs_u32:cuda"
P="$P vk-ms2=after:merge_sort:pairs_u32:vulkan vk-ms-base2=$B:merge_sort:pairs_u32:vulkan"
P="$P cu-pairs-hl=after:radix_sort:pairs:cuda:HIGH_LEADER=true cu-pairs=after:radix_sort:pairs:cuda"
P="$P cu-keys-hl=after:radix_sort:keys:cuda:HIGH_LEADER=true cu-keys=after:radix_sort:keys:cuda"
P="$P vk-pairs-hl=after:radix_sort:pairs:vulkan:HIGH_LEADER=true vk-pairs=after:radix_sort:pairs:vulkan"
P="$P vk-keys-hl=after:radix_sort:keys:vulkan:HIGH_LEADER=true vk-keys=after:radix_sort:keys:vulkan"
P="$P cu-pairs-hl2=after:radix_sort:pairs:cuda:HIGH_LEADER=true cu-pairs2=after:radix_sort:pairs:cuda"
PLAN="$P" CUB_ONLY=merge_sort,radix_sort LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=35 BUDGET_S=520 bash bench/ab-demos.sh $OUT
PLAN="vk-ms-small=after:merge_sort:pairs_u32:vulkan" LOG2_LO=10 LOG2_HI=19 RUNS=5 WARMUP=2 STEP_S=40 BUDGET_S=50 bash bench/ab-demos.sh $OUT/small
cat $OUT/small/ab.log >> $OUT/ab.log; rm -rf $OUT/small
