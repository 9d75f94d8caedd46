#!/usr/bin/env bash
# Session 63, call 8: Unique with lane 0 loading its predecessor (one
# shuffle an element fewer than taking it from the round before's last
# lane), CUDA and Vulkan, against 706dfaf's pack (target/nvc/s63/b706.gz),
# twice each; CUB.
set -u
OUT=$1
gunzip -c target/nvc/s63/b706.gz > /tmp/b706 && chmod +x /tmp/b706
B=/tmp/b706
U=unique:runs_u32
PLAN="cu=after:$U:cuda cu-706=$B:$U:cuda vk=after:$U:vulkan vk-706=$B:$U:vulkan cu2=after:$U:cuda cu-706b=$B:$U:cuda vk2=after:$U:vulkan vk-706b=$B:$U:vulkan" \
  CUB_ONLY=unique LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=200 bash bench/ab-demos.sh $OUT
