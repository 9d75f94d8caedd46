#!/usr/bin/env bash
# Device call 4 of 2026-11-27h: MergeSort's tile shapes through Vulkan
# (call 3: 256 x 17 slower than main's 128 x 8 there), main's binary again
# as the baseline.
OUT=${1:?OUT}
B=target/wk-demos-main.gz
M=merge_sort:pairs_u32:vulkan
LOG2_LO=20 LOG2_HI=24 STEP_S=30 \
    PLAN="${PLAN_H4:-before=$B:$M after=after:$M i7=after:$M:ITEMS=7u i11=after:$M:ITEMS=11u i5=after:$M:ITEMS=5u b128i15=after:$M:BLOCK=128u,ITEMS=15u b128i7=after:$M:BLOCK=128u,ITEMS=7u b128i9=after:$M:BLOCK=128u,ITEMS=9u b512i7=after:$M:BLOCK=512u,ITEMS=7u}" \
    BUDGET_S=240 bash bench/ab-demos.sh "$OUT/vulkan"
