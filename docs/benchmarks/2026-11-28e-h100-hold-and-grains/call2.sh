#!/usr/bin/env bash
# Session 53, call 2: FixedSegmentedSort in grains of 4 (after) against
# 83c5bfd (base), CUDA and Vulkan, 2^20..2^26, with GRAIN=8 and ITEMS=1;
# SegmentedReduce (fixed 1024) at ITEMS 2 and 4; CUB for these and the
# bandwidth families that call 1's CUB step did not reach.
set -u
OUT=$1
C=contact_sort:seg32,seg16,seg8
PLAN="base-cs-cu=target/wk-demos-base.gz:$C:cuda after-cs-cu=after:$C:cuda base-cs-vk=target/wk-demos-base.gz:$C:vulkan after-cs-vk=after:$C:vulkan g8-cs-cu=after:$C:cuda:GRAIN=8u g8-cs-vk=after:$C:vulkan:GRAIN=8u i1-cs-cu=after:$C:cuda:ITEMS=1u i1-cs-vk=after:$C:vulkan:ITEMS=1u" \
  CUB_ONLY=contact_sort LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=40 CUB_S=60 BUDGET_S=330 bash bench/ab-demos.sh $OUT/a
B=by_key:segmented_sum_u32
PLAN="after-sr-cu=after:$B:cuda i4-sr-cu=after:$B:cuda:ITEMS=4u i2-sr-cu=after:$B:cuda:ITEMS=2u after-sr-vk=after:$B:vulkan i4-sr-vk=after:$B:vulkan:ITEMS=4u" \
  CUB_ONLY=by_key,partition,arg_reduce,unique,adjacent_difference,transform_reduce LOG2_LO=20 LOG2_HI=24 RUNS=10 WARMUP=3 STEP_S=20 CUB_S=120 BUDGET_S=230 bash bench/ab-demos.sh $OUT/b
