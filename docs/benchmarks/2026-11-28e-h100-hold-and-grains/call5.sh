#!/usr/bin/env bash
# Session 53, call 5: ArgReduce at ITEMS 16 and MAX_PARTIALS 1024 against the
# defaults (8, 2048) through CUDA and Vulkan, 2^16..2^24, with CUB; the
# contact sort's seg16 alone through Vulkan at 2^20..2^22 (call 3's slow
# small sizes), twice.
set -u
OUT=$1
A=arg_reduce:min_f32
PLAN="ar-cu=after:$A:cuda ar16-cu=after:$A:cuda:ITEMS=16u,MAX_PARTIALS=1024u ar-vk=after:$A:vulkan ar16-vk=after:$A:vulkan:ITEMS=16u,MAX_PARTIALS=1024u ar-cu2=after:$A:cuda ar16-cu2=after:$A:cuda:ITEMS=16u,MAX_PARTIALS=1024u" \
  CUB_ONLY=arg_reduce LOG2_LO=16 LOG2_HI=24 RUNS=10 WARMUP=3 STEP_S=25 CUB_S=40 BUDGET_S=200 bash bench/ab-demos.sh $OUT/a
PLAN="s16-vk=after:contact_sort:seg16:vulkan s16-vk2=after:contact_sort:seg16:vulkan s8-vk=after:contact_sort:seg8:vulkan" \
  LOG2_LO=20 LOG2_HI=22 RUNS=10 WARMUP=3 STEP_S=20 BUDGET_S=70 bash bench/ab-demos.sh $OUT/b
