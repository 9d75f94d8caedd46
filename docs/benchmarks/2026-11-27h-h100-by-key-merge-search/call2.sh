#!/usr/bin/env bash
# Device call 2 of 2026-11-27h (issue 35): ScanByKey and ReduceByKey
# rebuilt (bykey2: subgroup block scan, transposed loads, window look-back,
# single-pass reduction) against `main` before the merge (43cd7a2,
# target/wk-demos-main.gz) and each of the new steps switched off in the
# after binary; BinarySearch's ITEMS and LOCKSTEP; Reduce and ArgReduce
# through Vulkan (call 1 ran out of budget there). CUB in the same call.
OUT=${1:?OUT}
B=target/wk-demos-main.gz
plan() { # backend
    local b=$1
    echo "after=after:by_key:scan_sum_u32,reduce_sum_u32:$b" \
         "before=$B:by_key:scan_sum_u32,reduce_sum_u32:$b" \
         "noTL=after:by_key:scan_sum_u32,reduce_sum_u32:$b:TRANSPOSED_LOADS=false" \
         "noWIN=after:by_key:scan_sum_u32,reduce_sum_u32:$b:WINDOW=false" \
         "passes3=after:by_key:reduce_sum_u32:$b:REDUCE_PASSES=3u" \
         "noSG=after:by_key:scan_sum_u32:$b:SUBGROUP_SCAN=false" \
         "i8=after:binary_search:lower_u32:$b:LOCKSTEP=false,ITEMS=8u" \
         "i8lock=after:binary_search:lower_u32:$b:LOCKSTEP=true,ITEMS=8u" \
         "i16=after:binary_search:lower_u32:$b:LOCKSTEP=false,ITEMS=16u" \
         "i16lock=after:binary_search:lower_u32:$b:LOCKSTEP=true,ITEMS=16u"
}
LOG2_LO=20 LOG2_HI=26 STEP_S=45 PLAN=$(plan cuda) CUB_ONLY=by_key,binary_search \
    BUDGET_S=${CUDA_S:-200} bash bench/ab-demos.sh "$OUT/cuda"
LOG2_LO=20 LOG2_HI=26 STEP_S=45 PLAN="$(plan vulkan) reduce=after:reduce:sum_f32:vulkan arg=after:arg_reduce:min_f32:vulkan" \
    BUDGET_S=${VULKAN_S:-200} bash bench/ab-demos.sh "$OUT/vulkan"
