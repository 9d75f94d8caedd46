#!/usr/bin/env bash
# Session 52, call 7: RadixSort's one-workgroup path (at most 1280 keys) against
# the multi-tile sort (main + pass timestamps, 638f062), Vulkan and CUDA, 2^10..2^12;
# CUB (the demo now leaves keys and pairs to the library's choice).
set -u
OUT=$1
PLAN="vk-main=target/wk-demos-main.gz:radix_sort:keys,pairs:vulkan vk-tile=after:radix_sort:keys,pairs:vulkan cu-main=target/wk-demos-main.gz:radix_sort:keys,pairs:cuda cu-tile=after:radix_sort:keys,pairs:cuda vk-main2=target/wk-demos-main.gz:radix_sort:keys,pairs:vulkan vk-tile2=after:radix_sort:keys,pairs:vulkan" \
  CUB_ONLY=radix_sort LOG2_LO=10 LOG2_HI=12 RUNS=30 WARMUP=3 STEP_S=40 BUDGET_S=240 bash bench/ab-demos.sh $OUT


