#!/usr/bin/env bash
# Session 61, call 4: the operator scan's lane scan as a butterfly of xor
# shuffles (after: log2(S) shuffle_xor, every lane ends with the total)
# against the committed Hillis-Steele tree (bb6839b: log2(S) + 1
# shuffle_up, a broadcast), inclusive u32 max, Vulkan and CUDA, two rounds
# alternating, with CUB in the same call.
set -u
OUT=$1
V=inclusive_max_u32
H=target/nvc/s61/wk-demos-hs.gz
PLAN="fly-vk=after:scan:$V:vulkan hs-vk=$H:scan:$V:vulkan fly=after:scan:$V:cuda hs=$H:scan:$V:cuda fly-vk2=after:scan:$V:vulkan hs-vk2=$H:scan:$V:vulkan fly2=after:scan:$V:cuda hs2=$H:scan:$V:cuda" \
  CUB_ONLY=scan LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=250 bash bench/ab-demos.sh $OUT
