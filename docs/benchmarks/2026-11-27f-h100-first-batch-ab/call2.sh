#!/usr/bin/env bash
# The second device call of 2026-11-27f: the first batch's parameters
# (LOADS, ITEMS, MAX_PARTIALS) against each other and CUB, the sizes the
# first call's `before` runs missed, and tests/device_cuda.rs.
OUT=${1:?OUT}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/call2.log") 2>&1
BIN=/tmp/wk-ab2
rm -rf $BIN && mkdir -p $BIN
mkdir -p /opt/wk && for f in .llvm-debs/*.deb; do dpkg -x "$f" /opt/wk; done
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
ICD=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[[ -f $ICD ]] && export VK_DRIVER_FILES=$ICD
export XDG_RUNTIME_DIR=/tmp/wavekit-runtime
mkdir -p -m 700 "$XDG_RUNTIME_DIR"
tar -xzf target/wk-bench.tar.gz -C $BIN
gunzip -c target/wk-demos-d0507a1.gz >$BIN/before && chmod +x $BIN/before
gunzip -c target/wk-device-cuda.gz >$BIN/tests && chmod +x $BIN/tests
(nvcc -O3 -std=c++17 -arch=sm_90 -o $BIN/cub_ref bench/ref/cub_ref.cu >$BIN/cub.log 2>&1) &
CUB=$!
WK=(env "LD_LIBRARY_PATH=/opt/wk/usr/lib/x86_64-linux-gnu" "WAVEKIT_LIBDEVICE=$PWD/.llvm-debs/libdevice.10.bc")
T=(--warmup 3 --warmup-ms 200 --settle-ms 100 --runs 10)
echo "== call2 $(date -u '+%F %T') UTC, after = $(cat $BIN/commit.txt)"
demo() { # label params binary demo variant backend log2
    echo "== $1 [${2:--}]: $4 $5 $6 2^$7"
    timeout 60 env WAVEKIT_SHADER_PARAMS="$2" "${WK[@]}" "$3" "$4" --variant "$5" --backend "$6" --log2 "$7" "${T[@]}" || echo "== exit $?"
}
for p in "" LOADS=2u LOADS=8u MAX_PARTIALS=1056u; do
    demo after "$p" $BIN/wk-demos transform_reduce square_sum_f32 cuda,vulkan 20..=26
done
demo after "" $BIN/wk-demos reduce sum_f32 cuda 20..=23
demo after LOADS=2u $BIN/wk-demos reduce sum_f32 cuda 20..=23
demo before "" $BIN/before transform_reduce square_sum_f32 cuda,vulkan 20..=23
demo before "" $BIN/before reduce sum_f32 cuda 20..=23
for p in "" ITEMS=4u ITEMS=16u; do
    demo after "$p" $BIN/wk-demos adjacent_difference left_u32 cuda 22..=26
done
for p in ITEMS=16u MAX_PARTIALS=1056u; do
    demo after "$p" $BIN/wk-demos arg_reduce min_f32 cuda 22..=26
done
demo before "" $BIN/before binary_search lower_u32 cuda 24..=26
demo after "" $BIN/wk-demos binary_search lower_u32 vulkan 24..=24
demo before "" $BIN/before binary_search lower_u32 vulkan 24..=24
demo before "" $BIN/before by_key segmented_sum_u32 cuda 22..=26
wait $CUB
echo "== CUB"
timeout 60 $BIN/cub_ref --log2 20 26 --warmup 3 --warmup-ms 200 --runs 10 --only transform_reduce,adjacent_difference,arg_reduce,reduce | grep "^ok"
echo "== tests/device_cuda.rs"
timeout 120 "${WK[@]}" $BIN/tests --test-threads 1 2>&1 | tail -n 30
echo "== done $(date -u '+%T')"
