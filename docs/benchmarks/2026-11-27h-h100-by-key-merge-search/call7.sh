#!/usr/bin/env bash
# Device call 7 of 2026-11-27h (issue 35): ScanByKey's store turned
# striped through workgroup memory (STORE_TRANSPOSED=true, shipped) against
# the blocked store (false: main's), after call 6's Nsight Compute found the
# scan's L2 84 % busy with 6x CUB's write sectors. CUB in the same call.
OUT=${1:?OUT}
K=by_key:scan_sum_u32
LOG2_LO=20 LOG2_HI=26 STEP_S=40 CUB_ONLY=by_key \
    PLAN="st=after:$K:cuda blk=after:$K:cuda:STORE_TRANSPOSED=false st2=after:$K:cuda" \
    BUDGET_S=150 bash bench/ab-demos.sh "$OUT/cuda"
LOG2_LO=20 LOG2_HI=26 STEP_S=40 \
    PLAN="st=after:$K:vulkan blk=after:$K:vulkan:STORE_TRANSPOSED=false st2=after:$K:vulkan" \
    BUDGET_S=120 bash bench/ab-demos.sh "$OUT/vulkan"
