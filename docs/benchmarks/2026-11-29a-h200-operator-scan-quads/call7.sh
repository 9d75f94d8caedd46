#!/usr/bin/env bash
# Session 61, call 7: the ordered window's combination branch-free (after:
# `x = select(x, lb_combine(earlier, x), lane + d < size)`) against the
# branch (bb6839b, target/nvc/s61/wk-demos-hs.gz), and the serial walk
# (WINDOW=false) of the after build, inclusive u32 max, Vulkan and CUDA,
# two rounds.
set -u
OUT=$1
V=inclusive_max_u32
H=target/nvc/s61/wk-demos-hs.gz
PLAN="sel-vk=after:scan:$V:vulkan br-vk=$H:scan:$V:vulkan serial-vk=after:scan:$V:vulkan:WINDOW=false sel=after:scan:$V:cuda br=$H:scan:$V:cuda sel-vk2=after:scan:$V:vulkan br-vk2=$H:scan:$V:vulkan serial-vk2=after:scan:$V:vulkan:WINDOW=false sel2=after:scan:$V:cuda br2=$H:scan:$V:cuda" \
  CUB_ONLY=scan LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=250 bash bench/ab-demos.sh $OUT
