#!/usr/bin/env bash
# Session 62, call 2: ReduceByKey through Vulkan with the quads at 12, 16
# and 20 a thread (two rounds of 12 and 16); ScanByKey through CUDA with
# the quads (QUADS=true) at 12 and 8 a thread against the default (10,
# word loads that LLVM joins only where aligned) and 12 without the quads;
# CUB once.
set -u
OUT=$1
R=reduce_sum_u32
S=scan_sum_u32
PLAN="r-q12=after:by_key:$R:vulkan r-q16=after:by_key:$R:vulkan:ITEMS=16u r-q20=after:by_key:$R:vulkan:ITEMS=20u s-cuda=after:by_key:$S:cuda s-cuda-q12=after:by_key:$S:cuda:QUADS=true,ITEMS=12u s-cuda-q8=after:by_key:$S:cuda:QUADS=true,ITEMS=8u s-cuda-w12=after:by_key:$S:cuda:ITEMS=12u r-q12b=after:by_key:$R:vulkan r-q16b=after:by_key:$R:vulkan:ITEMS=16u s-cuda-b=after:by_key:$S:cuda s-cuda-q12b=after:by_key:$S:cuda:QUADS=true,ITEMS=12u" \
  CUB_ONLY=by_key LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=300 bash bench/ab-demos.sh $OUT
