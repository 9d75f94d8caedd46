#!/usr/bin/env bash
# Device call 1 of 2026-11-27h (issue 35): BinarySearch with its searches
# in lockstep (LOCKSTEP=true, shipped) against one after another
# (LOCKSTEP=false), Reduce with MAX_PARTIALS = 1056 (never measured for
# plain Reduce), ArgReduce at 2^20..2^23, CUB in the same call; CUDA, then
# Vulkan. One binary: target/wk-bench.tar.gz (wk-demos of `main`).
OUT=${1:?OUT}
plan() { # backend
    local b=$1
    echo "lock=after:binary_search:lower_u32:$b:LOCKSTEP=true" \
         "nolock=after:binary_search:lower_u32:$b:LOCKSTEP=false" \
         "lock2=after:binary_search:lower_u32:$b:LOCKSTEP=true" \
         "items8=after:binary_search:lower_u32:$b:LOCKSTEP=true,ITEMS=8u" \
         "reduce=after:reduce:sum_f32:$b" \
         "arg=after:arg_reduce:min_f32:$b"
}
LOG2_LO=20 LOG2_HI=26 PLAN=$(plan cuda) CUB_ONLY=binary_search,reduce,arg_reduce \
    BUDGET_S=${CUDA_S:-150} bash bench/ab-demos.sh "$OUT/cuda"
LOG2_LO=20 LOG2_HI=26 PLAN=$(plan vulkan) BUDGET_S=${VULKAN_S:-120} bash bench/ab-demos.sh "$OUT/vulkan"
