#!/usr/bin/env bash
# Device call 3 of 2026-11-27h (issue 35): MergeSort in CUB's shape
# (merge2: 256 x 17 block merge sort and merge passes) against `main`
# before it (target/wk-demos-main.gz, 43cd7a2) and its tile shapes;
# BinarySearch's shipped defaults (16 a thread, lockstep off on CUDA);
# tests/device_cuda.rs. CUB in the same call.
OUT=${1:?OUT}
B=target/wk-demos-main.gz
M=merge_sort:pairs_u32
sweep() { # backend
    local b=$1
    echo "after=after:$M:$b before=$B:$M:$b i15=after:$M:$b:ITEMS=15u i16=after:$M:$b:ITEMS=16u" \
         "i13=after:$M:$b:ITEMS=13u i21=after:$M:$b:ITEMS=21u b128=after:$M:$b:BLOCK=128u" \
         "b512=after:$M:$b:BLOCK=512u,ITEMS=11u"
}
LOG2_LO=20 LOG2_HI=24 STEP_S=40 PLAN=$(sweep cuda) CUB_ONLY=merge_sort,binary_search \
    BUDGET_S=${CUDA_S:-260} bash bench/ab-demos.sh "$OUT/cuda"
LOG2_LO=25 LOG2_HI=26 STEP_S=60 PLAN="after=after:$M:cuda before=$B:$M:cuda" CUB_ONLY=merge_sort \
    BUDGET_S=150 bash bench/ab-demos.sh "$OUT/cuda26"
LOG2_LO=20 LOG2_HI=26 STEP_S=40 PLAN="search=after:binary_search:lower_u32:cuda" \
    BUDGET_S=40 bash bench/ab-demos.sh "$OUT/cuda-search"
LOG2_LO=20 LOG2_HI=24 STEP_S=40 \
    PLAN="after=after:$M:vulkan before=$B:$M:vulkan i15=after:$M:vulkan:ITEMS=15u search=after:binary_search:lower_u32:vulkan" \
    BUDGET_S=150 bash bench/ab-demos.sh "$OUT/vulkan"
# tests/device_cuda.rs (every algorithm on the GPU through CUDA).
source bench/device-setup.sh
T=/tmp/wk-ab/wk-device-cuda
[[ -x $T ]] || tar -xzf target/wk-bench.tar.gz -C /tmp/wk-ab ./wk-device-cuda
timeout 200 "${WK[@]}" "$T" --test-threads 1 2>&1 | tail -n 30 | tee "$OUT/device-cuda.log"
