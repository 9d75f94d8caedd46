#!/usr/bin/env bash
# Session 65, call 2: 880e590's pack (FULL_SCATTER on CUDA) against the same
# binary with WAVEKIT_SHADER_PARAMS=FULL_SCATTER=false and HEAD-before's
# binary (base.gz, 2559d1b): the radix sort through CUDA, keys and pairs;
# then MergeSort pairs through Vulkan at BLOCK x ITEMS by parameter; CUB.
set -u
OUT=$1
B=target/nvc/s65/base.gz
P="cu-pairs=after:radix_sort:pairs:cuda cu-pairs-off=after:radix_sort:pairs:cuda:FULL_SCATTER=false cu-pairs-base=$B:radix_sort:pairs:cuda"
P="$P cu-keys=after:radix_sort:keys:cuda cu-keys-off=after:radix_sort:keys:cuda:FULL_SCATTER=false"
P="$P cu-pairs2=after:radix_sort:pairs:cuda cu-pairs-off2=after:radix_sort:pairs:cuda:FULL_SCATTER=false"
P="$P vk-ms256x5=after:merge_sort:pairs_u32:vulkan"
for s in 128x9 128x11 128x13 128x7 64x17 128x15 64x13; do
  b=${s%x*}; i=${s#*x}
  P="$P vk-ms$s=after:merge_sort:pairs_u32:vulkan:BLOCK=${b}u,ITEMS=${i}u"
done
PLAN="$P" CUB_ONLY=radix_sort,merge_sort LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=40 BUDGET_S=560 bash bench/ab-demos.sh $OUT
