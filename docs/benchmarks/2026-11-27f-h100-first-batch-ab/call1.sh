#!/usr/bin/env bash
# The device call of 2026-11-27f (issues 35 and 36): A/B of the first batch's
# reads and of the device shaders moved onto block rows, CUB alongside, and
# the vectorized block rows' conformance through CUDA and Vulkan.
OUT=${1:?OUT}
B=target/wk-demos-d0507a1.gz
F="arg_reduce:min_f32 adjacent_difference:left_u32 transform_reduce:square_sum_f32 reduce:sum_f32 binary_search:lower_u32"
plan() { # backend
    local p=""
    for f in $F; do p+=" after=after:$f:$1"; done
    p+=" after=after:by_key:segmented_sum_u32,scan_sum_u32,reduce_sum_u32:$1"
    for f in $F; do p+=" before=$B:$f:$1"; done
    p+=" before=$B:by_key:segmented_sum_u32:$1"
    echo "$p"
}
PLAN=$(plan cuda) CUB_ONLY=arg_reduce,adjacent_difference,transform_reduce,reduce,binary_search,by_key \
    BUDGET_S=${CUDA_S:-170} bash bench/ab-demos.sh "$OUT/cuda"
ICD=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[[ -f $ICD ]] && export VK_DRIVER_FILES=$ICD
export XDG_RUNTIME_DIR=/tmp/wavekit-runtime
for backend in cuda vulkan; do
    echo "== wavekit check --backend $backend: the vectorized block rows" | tee -a "$OUT/check.log"
    timeout 60 env LD_LIBRARY_PATH=/opt/wk/usr/lib/x86_64-linux-gnu WAVEKIT_LIBDEVICE=$PWD/.llvm-debs/libdevice.10.bc \
        /tmp/wk-ab/wavekit check --backend "$backend" --op load_vectorized,store_vectorized >>"$OUT/check.log" 2>&1
    echo "== exit $?" >>"$OUT/check.log"
done
PLAN=$(plan vulkan) BUDGET_S=${VULKAN_S:-150} bash bench/ab-demos.sh "$OUT/vulkan"
