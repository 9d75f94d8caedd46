#!/usr/bin/env bash
# Session 61, call 6: what holds the operator scan through Vulkan, by
# parameters of the packed build (4b704a7's code): the look-back's walk by
# thread 0 alone (WINDOW=false) and bigger tiles (QUADS 12), against the
# default, inclusive u32 max, Vulkan and CUDA.
set -u
OUT=$1
V=inclusive_max_u32
PLAN="def-vk=after:scan:$V:vulkan serial-vk=after:scan:$V:vulkan:WINDOW=false q12-vk=after:scan:$V:vulkan:QUADS=12u def=after:scan:$V:cuda serial=after:scan:$V:cuda:WINDOW=false q12=after:scan:$V:cuda:QUADS=12u sum-serial-vk=after:scan:lookback:vulkan:WINDOW=false" \
  LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=200 bash bench/ab-demos.sh $OUT
