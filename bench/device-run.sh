#!/usr/bin/env bash
# The whole benchmark run (issue 8) on the device machine, in one command:
#
#   bash bench/device-run.sh OUT_DIR
#
# from the repository root, with .llvm-debs, .gl and target/wk-bench.tar.gz
# (bench/pack.sh) carried. It records the GPU and driver, then runs
#   refs    PyTorch references and the device-to-device copy (bench/ref/torch_ref.py)
#   cuda    every demo through wavekit's CUDA back end
#   cub     CUB called directly (bench/ref/cub_ref.cu, built here by nvcc; top_k's
#           DeviceTopK: the tarball's cub_topk, bench/ref/cub_topk.cu; by_key's
#           DeviceSegmentedScan: its cub_segscan, bench/ref/cub_segscan.cu)
#   micro   single subgroup ops: wavekit (CUDA, Vulkan) and CUDA C++ (bench/micro/warp_ops.cu)
#   vulkan  every demo through wavekit on Vulkan (wgpu)
#   peers   what a wgpu user would pick instead: wgpu_sort 0.1.0, ported to
#           wgpu 30 (bench/peers), on the Vulkan sort's inputs and sizes
# in that order, CUDA first because CUDA against CUB is the comparison that
# matters most. Every step logs to its own file and the run goes on when one
# fails or runs out of time. The results go to a staging folder, packed after
# every step into OUT_DIR/bench-raw.tar.gz (the device tool brings back at
# most 8 files), next to OUT_DIR/run.log. bench/README.md says how to make
# the tables and plots from them.
#
# Time: the wavekit demos check every size against a CPU reference, and at
# 2^28 the CPU (random inputs, sorting the references) takes far longer than
# the GPU, so the plan is: all variants up to 2^LOG2_MID, the default variant
# of each demo (radix_sort: keys, pairs, keys_reduce_then_scan) above it,
# Vulkan up to 2^VULKAN_LOG2_HI.
# No step runs past BUDGET_S seconds from the start. The whole run no longer
# fits one 600 s device call (H100, 2026-11-28: the PyTorch step 84 s, CUDA's
# six default demos to 2^28 354 s, of which the radix sort's 2^25-2^28 95 s;
# Vulkan and part of CUB were then cut: docs/benchmarks/2026-11-28c-h100-
# standard-run-overrun). Split it with PARTS, each call with its own cub step
# (numbers compare within one call), or lower LOG2_HI.
#
# Knobs (environment): BUDGET_S=330 RUNS=20 WARMUP=5 WARMUP_MS=200 (wall time
# of untimed runs before each timing, for wavekit and the references alike:
# the GPU's clocks drop while the CPU prepares and checks inputs) LOG2_LO=10 LOG2_MID=24
# LOG2_HI=28 VULKAN_LOG2_HI=26 FULL=0 (1: every variant at every size on both
# back ends; takes about 9 minutes: give it BUDGET_S=570 or split it with PARTS)
# PARTS="refs cuda cub micro vulkan peers" (also: tests, the wavekit::device CUDA
# tests; cuda_steps and vulkan_steps, the demos on their own steps) DEMOS="reduce scan ..." ADAPTER= (wgpu
# adapter substring) SMS= (default: from PyTorch, else 132) SETUP=1 (0: skip
# unpacking .llvm-debs and .gl, for a dry run off the device machine)
# MICRO_ARGS= (more flags for wavekit's micro, e.g. "--blocks-per-sm 2 --trips 4"
# on a CPU adapter) PEERS_LOG2_LO=16 (the peers' sizes: from there, or from
# LOG2_LO where that is above VULKAN_LOG2_HI, to VULKAN_LOG2_HI, at most 27)
# PEERS_ARGS= (more flags for wk-peers, e.g. "--subgroup-size 32" instead of
# wgpu_sort's guess)
# CUB_ONLY= (cub_ref's --only; default: the copy and DEMOS, so that the CUB
# step times only what the demos are compared with)
# WK_DEMOS= WK_MICRO= WK_PEERS= (binaries; default: from target/wk-bench.tar.gz, then
# target/wk-demos and target/wk-micro, then target/release; wk-peers: then
# bench/peers/target/release).

# No `set -e`: a failing step is recorded and the run goes on.
set -uo pipefail

OUT=${1:?usage: bench/device-run.sh OUT_DIR}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 2
mkdir -p "$OUT" || exit 2
OUT=$(cd "$OUT" && pwd)
STAGE=${STAGE_DIR:-/tmp/wk-bench}
RAW=$STAGE/raw
BIN=$STAGE/bin
BUILD=$STAGE/build
rm -rf "$STAGE"
mkdir -p "$RAW/info" "$RAW/wavekit" "$RAW/ref" "$RAW/micro" "$RAW/peers" "$BIN" "$BUILD"

BUDGET_S=${BUDGET_S:-330}
RUNS=${RUNS:-20}
WARMUP=${WARMUP:-5}
WARMUP_MS=${WARMUP_MS:-200}
LO=${LOG2_LO:-10}
MID=${LOG2_MID:-24}
HI=${LOG2_HI:-28}
# wavekit-demos --settle-ms: timed batches until none is 2 % faster than the
# best for this long (docs/benchmarks/2026-11-25b-h100-vulkan).
SETTLE_MS=${SETTLE_MS:-300}
VK_HI=${VULKAN_LOG2_HI:-26}
if [[ ${FULL:-0} == 1 ]]; then MID=$HI VK_HI=$HI; fi
DEMOS=${DEMOS:-reduce scan compact histogram radix_sort contact_sort}
PARTS=${PARTS:-refs cuda cub micro vulkan peers}
ADAPTER=${ADAPTER:-}
SMS=${SMS:-}
read -r -a MICRO_ARGS <<<"${MICRO_ARGS:-}"
read -r -a PEERS_ARGS <<<"${PEERS_ARGS:-}"
START=$(date +%s)

exec > >(tee -a "$OUT/run.log") 2>&1
echo "== bench/device-run.sh $(date -u '+%F %T') UTC: parts [$PARTS], budget ${BUDGET_S}s, runs $RUNS after $WARMUP warm-up runs and ${WARMUP_MS} ms"
echo "   sizes: 2^$LO..2^$MID all variants, default variants to 2^$HI (CUDA) / 2^$VK_HI (Vulkan)"

has_part() { [[ " $PARTS " == *" $1 "* ]]; }
left() { echo $((BUDGET_S - ($(date +%s) - START))); }

# Packs the staging folder into OUT (after every step, so that a run cut
# short still brings back what it measured).
pack() {
    tar -C "$RAW" -czf "$OUT/bench-raw.tar.gz.part" . && mv -f "$OUT/bench-raw.tar.gz.part" "$OUT/bench-raw.tar.gz"
}

# step NAME CAP RESERVE STDOUT STDERR CMD...: runs CMD for at most CAP
# seconds, and never into the last RESERVE seconds of the budget (kept for
# the steps after it); STDOUT and STDERR may be the same file.
step() {
    local name=$1 cap=$2 reserve=$3 out=$4 err=$5
    shift 5
    local limit=$(($(left) - reserve))
    ((cap < limit)) && limit=$cap
    if ((limit < 5)); then
        echo "SKIP $name: no time left"
        printf '%s\tskip\t0\tno time left\n' "$name" >>"$RAW/steps.tsv"
        return 0
    fi
    echo "---- $name (limit ${limit}s, $(date -u +%T))"
    local t0 rc
    t0=$(date +%s)
    if [[ $out == "$err" ]]; then
        timeout --kill-after=5 "$limit" "$@" >"$out" 2>&1
    else
        timeout --kill-after=5 "$limit" "$@" >"$out" 2>"$err"
    fi
    rc=$?
    local dt=$(($(date +%s) - t0))
    local files=("$out") oks fails
    [[ $out == "$err" ]] || files+=("$err")
    oks=$(cat "${files[@]}" 2>/dev/null | grep -c '^ok ')
    fails=$(cat "${files[@]}" 2>/dev/null | grep -c '^FAIL')
    echo "     exit $rc after ${dt}s: $oks ok, $fails FAIL$([[ $rc == 124 || $rc == 137 ]] && echo ' (time limit)')"
    if ((rc != 0)); then
        { grep -h '^FAIL\|^error' "${files[@]}" 2>/dev/null | head -n 5; tail -n 2 "$err"; } | awk '!seen[$0]++' | sed 's/^/     | /'
    fi
    printf '%s\t%s\t%s\t%s ok, %s FAIL\n' "$name" "$rc" "$dt" "$oks" "$fails" >>"$RAW/steps.tsv"
    pack
    return 0
}

first_file() {
    local f
    for f in "$@"; do [[ -f $f ]] && { echo "$f"; return; }; done
    echo "${1}"
}

# ---- set-up: libraries, Vulkan loader, binaries --------------------------
printf 'step\texit\tseconds\tnote\n' >"$RAW/steps.tsv"
if [[ ${SETUP:-1} == 1 ]]; then
    if compgen -G ".llvm-debs/*.deb" >/dev/null; then
        mkdir -p /opt/wk && for f in .llvm-debs/*.deb; do dpkg -x "$f" /opt/wk; done
    else
        echo "WARNING: no .llvm-debs carried: the wavekit binaries need LLVM 19's shared library"
    fi
    if compgen -G ".gl/*.deb" >/dev/null; then
        for f in .gl/*.deb; do dpkg -x "$f" /; done
        ldconfig
    else
        echo "WARNING: no .gl carried: Vulkan needs the loader (device README)"
    fi
fi
ICD=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[[ -f $ICD ]] && export VK_DRIVER_FILES=$ICD
export XDG_RUNTIME_DIR=/tmp/wavekit-runtime
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
# The tune profiles recorded in docs/tune/ (issue 19), installed as stored
# profiles so wavekit's Vulkan runs use the lowerings `wavekit tune` chose on
# that adapter and driver (a profile for another driver is never used).
# PROFILES=0 runs with the documented default lowerings instead.
if [[ ${PROFILES:-1} == 1 ]] && compgen -G "docs/tune/*.json" >/dev/null; then
    export WAVEKIT_PROFILE_DIR=/tmp/wk-profiles
    mkdir -p "$WAVEKIT_PROFILE_DIR"
    for f in docs/tune/*.json; do
        # Profile::file_name: lower-case letters and digits, runs of anything
        # else as one `-`.
        name=$(python3 -c 'import json, re, sys
p = json.load(open(sys.argv[1]))
print(re.sub("[^a-z0-9]+", "-", (p["adapter"] + " " + p["driver"]).lower()).strip("-") + ".json")' "$f") &&
            cp "$f" "$WAVEKIT_PROFILE_DIR/$name" && echo "tune profile: $f -> $name"
    done
fi
# LLVM's libraries only for wavekit's binaries: Debian's libffi, libxml2 or
# ICU on the path could shadow what python3 and PyTorch load.
WK=(env "LD_LIBRARY_PATH=/opt/wk/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    "WAVEKIT_LIBDEVICE=$ROOT/.llvm-debs/libdevice.10.bc")

[[ -f target/wk-bench.tar.gz ]] && tar -xzf target/wk-bench.tar.gz -C "$BIN"
WK_DEMOS=${WK_DEMOS:-$(first_file "$BIN/wk-demos" target/wk-demos target/release/wavekit-demos)}
WK_MICRO=${WK_MICRO:-$(first_file "$BIN/wk-micro" target/wk-micro target/release/wavekit-micro target/release/micro)}
WK_PEERS=${WK_PEERS:-$(first_file "$BIN/wk-peers" bench/peers/target/release/wk-peers)}
echo "   binaries: $WK_DEMOS, $WK_MICRO, $WK_PEERS"

# ---- CUDA C++ builds, in the background while the GPU is busy --------------
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
(
    cd "$BUILD" || exit 1
    "$NVCC" -O3 -std=c++17 -arch=sm_90 -o warp_ops "$ROOT/bench/micro/warp_ops.cu" >warp_ops.build.log 2>&1 &
    "$NVCC" -O3 -std=c++17 -arch=sm_90 -o cub_ref "$ROOT/bench/ref/cub_ref.cu" >cub_ref.build.log 2>&1 &
    wait
) &
BUILD_PID=$!

# ---- what ran where ---------------------------------------------------------
INFO=$RAW/info
{
    nvidia-smi >"$INFO/nvidia-smi.txt" 2>&1
    nvidia-smi -q >"$INFO/nvidia-smi-q.txt" 2>&1
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu \
        --format=csv >"$INFO/gpu.csv" 2>&1
    uname -a >"$INFO/uname.txt"
    lscpu >"$INFO/lscpu.txt" 2>&1
    "$NVCC" --version >"$INFO/nvcc.txt" 2>&1
    "${WK[@]}" ldd "$WK_DEMOS" >"$INFO/ldd-wk-demos.txt" 2>&1
    sha256sum "$WK_DEMOS" "$WK_MICRO" "$WK_PEERS" >"$INFO/binaries.sha256" 2>&1
    cp -f bench/device-run.sh "$INFO/" 2>/dev/null
} || true
TORCH_INFO=$(timeout 60 python3 -c 'import torch; p = torch.cuda.get_device_properties(0); print(torch.__version__, torch.version.cuda, p.multi_processor_count)' 2>"$INFO/torch-info.log")
SMS=${SMS:-$(awk '{print $3}' <<<"$TORCH_INFO")}
SMS=${SMS:-132}
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
DRIVER=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1)
{
    echo "DATE=$(date -u +%F)"
    echo "GPU=${GPU:-unknown}"
    echo "DRIVER=${DRIVER:-unknown}"
    echo "CUDA_DRIVER=$(nvidia-smi 2>/dev/null | grep -o 'CUDA Version: [0-9.]*' | awk '{print $3}')"
    echo "SMS=$SMS"
    echo "NVCC=$("$NVCC" --version 2>/dev/null | grep -o 'release [0-9.]*' | awk '{print $2}')"
    echo "TORCH=$(awk '{print $1 " (CUDA " $2 ")"}' <<<"${TORCH_INFO:-unknown ?}")"
    echo "COMMIT=$(cat "$BIN/commit.txt" 2>/dev/null || git rev-parse --short HEAD 2>/dev/null || echo unknown)"
    echo "RUNS=$RUNS"
    echo "WARMUP=$WARMUP"
    echo "WARMUP_MS=$WARMUP_MS"
    echo "PLAN=2^$LO..2^$MID every variant; default variants to 2^$HI (CUDA) and 2^$VK_HI (Vulkan); references 2^$LO..2^$HI"
    echo "COMMAND=BUDGET_S=$BUDGET_S RUNS=$RUNS WARMUP=$WARMUP WARMUP_MS=$WARMUP_MS SETTLE_MS=$SETTLE_MS LOG2_LO=$LO LOG2_MID=$MID LOG2_HI=$HI VULKAN_LOG2_HI=$VK_HI bash bench/device-run.sh \$OUT"
} >"$INFO/summary.env"
echo "   GPU: ${GPU:-unknown}, driver ${DRIVER:-unknown}, $SMS SMs; torch: ${TORCH_INFO:-none}"
pack

# ---- wavekit demos -----------------------------------------------------------
# The variants a demo ran, in its order, from its report (or its log).
variants_of() {
    local json=$1 log=$2
    {
        grep -o '"variant": *"[^"]*"' "$json" 2>/dev/null | sed 's/.*: *"\(.*\)"/\1/'
        grep '^ok ' "$log" 2>/dev/null | awk '{print $4}'
    } | awk '!seen[$0]++'
}

# demos BACKEND LABEL TOP RESERVE [VAR=VALUE...]: each demo, every variant up
# to 2^MID, then its default variant (the first; radix_sort: keys, pairs and
# keys_reduce_then_scan) from 2^(MID+1) to 2^TOP, with the variables set.
demos() {
    local backend=$1 label=$2 top=$3 reserve=$4 demo
    shift 4
    local vars=("$@")
    local mid=$((top < MID ? top : MID))
    local adapter=()
    [[ $backend == vulkan && -n $ADAPTER ]] && adapter=(--adapter "$ADAPTER")
    for demo in $DEMOS; do
        local base=$RAW/wavekit/wavekit-$label-$demo
        step "$label $demo 2^$LO..2^$mid" 150 "$reserve" "$base-all.log" "$base-all.log" \
            "${WK[@]}" "${vars[@]}" "$WK_DEMOS" "$demo" --backend "$backend" "${adapter[@]}" \
            --log2 "$LO..=$mid" --warmup "$WARMUP" --warmup-ms "$WARMUP_MS" --settle-ms "$SETTLE_MS" --runs "$RUNS" --json "$base-all.json"
        ((top > mid)) || continue
        local variants
        mapfile -t variants < <(variants_of "$base-all.json" "$base-all.log")
        ((${#variants[@]} > 0)) || { echo "     no variants of $demo ran: skipping its large sizes"; continue; }
        if [[ $demo == radix_sort ]]; then
            # The device's choice for keys and pairs, and the fallback for keys.
            mapfile -t variants < <(printf '%s\n' "${variants[@]}" | grep -xE 'keys|pairs|keys_reduce_then_scan')
        else
            variants=("${variants[0]}")
        fi
        local flags=() v
        for v in "${variants[@]}"; do flags+=(--variant "$v"); done
        # Three radix sorts, each checked by a CPU sort of up to 2^28 keys.
        local cap=150
        [[ $demo == radix_sort ]] && cap=240
        step "$label $demo ${variants[*]} 2^$((mid + 1))..2^$top" "$cap" "$reserve" "$base-top.log" "$base-top.log" \
            "${WK[@]}" "${vars[@]}" "$WK_DEMOS" "$demo" --backend "$backend" "${adapter[@]}" "${flags[@]}" \
            --log2 "$((mid + 1))..=$top" --warmup "$WARMUP" --warmup-ms "$WARMUP_MS" --settle-ms "$SETTLE_MS" --runs "$RUNS" --json "$base-top.json"
        # The cliff check (issue 19, bench/src/cliff.rs): on Vulkan each
        # large size of each of those variants again in a process of its
        # own, into raw/alone/; the tables fail on a > 10 % difference.
        [[ $backend == vulkan ]] || continue
        mkdir -p "$RAW/alone"
        local n
        for v in "${variants[@]}"; do
            for ((n = mid + 1; n <= top; n++)); do
                local one=$RAW/alone/wavekit-$label-$demo-$v-$n
                step "$label $demo $v 2^$n alone" 90 "$reserve" "$one.log" "$one.log" \
                    "${WK[@]}" "${vars[@]}" "$WK_DEMOS" "$demo" --backend "$backend" "${adapter[@]}" --variant "$v" \
                    --log2 "$n..=$n" --warmup "$WARMUP" --warmup-ms "$WARMUP_MS" --settle-ms "$SETTLE_MS" --runs "$RUNS" --json "$one.json"
            done
        done
    done
}

wait_build() {
    local until=$(($(date +%s) + $1))
    while kill -0 "$BUILD_PID" 2>/dev/null && (($(date +%s) < until)); do sleep 1; done
    cp -f "$BUILD"/*.build.log "$INFO/" 2>/dev/null
}

# A binary built here, else the prebuilt one from target/wk-bench.tar.gz.
cuda_binary() {
    if [[ -x $BUILD/$1 ]]; then echo "$BUILD/$1"; elif [[ -x $BIN/$1 ]]; then echo "$BIN/$1"; fi
}

if has_part refs; then
    step "PyTorch references + copy" 120 200 "$RAW/ref/torch.log" "$RAW/ref/torch.log" \
        env PYTHONUNBUFFERED=1 python3 bench/ref/torch_ref.py --log2 "$LO" "$HI" \
        --warmup "$WARMUP" --warmup-ms "$WARMUP_MS" --runs "$RUNS" --out "$RAW/ref/torch.jsonl"
fi

if has_part tests; then
    # The wavekit::device CUDA tests (tests/device_cuda.rs) and the CUDA
    # example, packed by TESTS=1 bash bench/pack.sh.
    TESTS_BIN=$(first_file "$BIN/wk-device-cuda")
    step "wavekit::device CUDA tests" 120 60 "$INFO/device-cuda-tests.log" "$INFO/device-cuda-tests.log" \
        "${WK[@]}" "$TESTS_BIN" --test-threads 1
    EXAMPLE_BIN=$(first_file "$BIN/wk-example-device-cuda")
    step "examples/device_cuda.rs" 60 60 "$INFO/example-device-cuda.log" "$INFO/example-device-cuda.log" \
        "${WK[@]}" "$EXAMPLE_BIN"
fi

has_part cuda && demos cuda cuda "$HI" 100
# The demos' own steps over the same shaders instead of wavekit::device
# (label cuda-steps): the library's cost against them, in the same run.
has_part cuda_steps && demos cuda cuda-steps "$HI" 100 WAVEKIT_DEMOS_LIBRARY=0

if has_part cub; then
    wait_build 150
    CUB_REF=$(cuda_binary cub_ref)
    if [[ -n $CUB_REF ]]; then
        step "CUB references ($CUB_REF)" 120 60 "$RAW/ref/cub.jsonl" "$RAW/ref/cub.log" \
            "$CUB_REF" --log2 "$LO" "$HI" --warmup "$WARMUP" --warmup-ms "$WARMUP_MS" --runs "$RUNS" \
            --only "${CUB_ONLY:-copy,${DEMOS// /,}}"
        echo "CUB=$(grep -o 'CUB [0-9.]*' "$RAW/ref/cub.log" | head -n 1 | awk '{print $2}')" >>"$INFO/summary.env"
    else
        echo "FAIL cub_ref did not build:"; tail -n 20 "$BUILD/cub_ref.build.log" | sed 's/^/     | /'
        printf 'CUB references\tbuild failed\t0\tsee info/cub_ref.build.log\n' >>"$RAW/steps.tsv"
    fi
    # CUB's DeviceTopK for top_k: cub_topk from the tarball (bench/pack.sh
    # builds it against CCCL 13.2; this machine's CUDA 13.0 has no DeviceTopK).
    if [[ ,${CUB_ONLY:-copy,${DEMOS// /,}}, == *,top_k,* ]]; then
        if [[ -x $BIN/cub_topk ]]; then
            step "CUB DeviceTopK ($BIN/cub_topk)" 120 60 "$RAW/ref/cub_topk.jsonl" "$RAW/ref/cub_topk.log" \
                "$BIN/cub_topk" --log2 "$LO" "$HI" --warmup "$WARMUP" --warmup-ms "$WARMUP_MS" --runs "$RUNS" \
                --only top_k
        else
            echo "SKIP CUB DeviceTopK: no cub_topk in target/wk-bench.tar.gz (bench/pack.sh with the nvcc wheel)"
            printf 'CUB DeviceTopK\tskip\t0\tno cub_topk packed\n' >>"$RAW/steps.tsv"
        fi
    fi
    # CUB's own DeviceSegmentedScan for by_key's SegmentedScan rows (cub_ref
    # has InclusiveSumByKey over segment numbers): cub_segscan from the
    # tarball where bench/pack.sh built it (CCCL_MAIN: no release has it).
    if [[ ,${CUB_ONLY:-copy,${DEMOS// /,}}, == *,by_key,* ]]; then
        if [[ -x $BIN/cub_segscan ]]; then
            step "CUB DeviceSegmentedScan ($BIN/cub_segscan)" 60 30 "$RAW/ref/cub_segscan.jsonl" \
                "$RAW/ref/cub_segscan.log" "$BIN/cub_segscan" --log2 "$LO" "$HI" --warmup "$WARMUP" \
                --warmup-ms "$WARMUP_MS" --runs "$RUNS" --only by_key
        else
            echo "SKIP CUB DeviceSegmentedScan: no cub_segscan in target/wk-bench.tar.gz (bench/pack.sh with CCCL_MAIN)"
            printf 'CUB DeviceSegmentedScan\tskip\t0\tno cub_segscan packed\n' >>"$RAW/steps.tsv"
        fi
    fi
fi

if has_part micro; then
    step "micro wavekit CUDA" 60 40 "$RAW/micro/wavekit-cuda.jsonl" "$RAW/micro/wavekit-cuda.log" \
        "${WK[@]}" "$WK_MICRO" --backend cuda --sms "$SMS" --warmup 3 --runs "$RUNS" "${MICRO_ARGS[@]}"
    step "micro wavekit CUDA, shuffle lowering" 60 40 "$RAW/micro/wavekit-cuda-shuffle.jsonl" \
        "$RAW/micro/wavekit-cuda-shuffle.log" \
        "${WK[@]}" "$WK_MICRO" --backend cuda --sms "$SMS" --warmup 3 --runs "$RUNS" --lowering shuffle "${MICRO_ARGS[@]}"
    wait_build 60
    WARP_OPS=$(cuda_binary warp_ops)
    if [[ -n $WARP_OPS ]]; then
        step "micro CUDA C++ ($WARP_OPS)" 60 40 "$RAW/micro/cuda-cpp.jsonl" "$RAW/micro/cuda-cpp.log" \
            "$WARP_OPS" --sms "$SMS" --warmup 3 --runs "$RUNS"
    else
        echo "FAIL warp_ops did not build:"; tail -n 20 "$BUILD/warp_ops.build.log" | sed 's/^/     | /'
        printf 'micro CUDA C++\tbuild failed\t0\tsee info/warp_ops.build.log\n' >>"$RAW/steps.tsv"
    fi
    micro_adapter=()
    [[ -n $ADAPTER ]] && micro_adapter=(--adapter "$ADAPTER")
    step "micro wavekit Vulkan" 60 30 "$RAW/micro/wavekit-vulkan.jsonl" "$RAW/micro/wavekit-vulkan.log" \
        "${WK[@]}" "$WK_MICRO" --backend vulkan "${micro_adapter[@]}" --sms "$SMS" --warmup 3 --runs "$RUNS" "${MICRO_ARGS[@]}"
    step "micro wavekit Vulkan, shuffle lowering" 60 30 "$RAW/micro/wavekit-vulkan-shuffle.jsonl" \
        "$RAW/micro/wavekit-vulkan-shuffle.log" \
        "${WK[@]}" "$WK_MICRO" --backend vulkan "${micro_adapter[@]}" --sms "$SMS" --warmup 3 --runs "$RUNS" --lowering shuffle "${MICRO_ARGS[@]}"
fi

# The peers' step keeps a minute of the budget for itself.
PEERS_RESERVE=0
has_part peers && PEERS_RESERVE=60
has_part vulkan && demos vulkan vulkan "$VK_HI" "$PEERS_RESERVE"
has_part vulkan_steps && demos vulkan vulkan-steps "$VK_HI" 0 WAVEKIT_DEMOS_LIBRARY=0

if has_part peers; then
    # wgpu_sort 0.1.0 ported to wgpu 30 (bench/peers/README.md): the inputs
    # of wavekit's radix_sort pairs, timed the same way, every size checked
    # against a CPU sort; wavekit-bench's peers.md sets it beside wavekit's.
    # Up to 2^26: wgpu_sort's keys buffer for 2^27 pairs is over wgpu's
    # 2 GiB buffer limit (wk-peers then fails that size with wgpu's error).
    peers_hi=$((VK_HI < 26 ? VK_HI : 26))
    peers_lo=${PEERS_LOG2_LO:-16}
    ((peers_lo > peers_hi)) && peers_lo=$LO
    peers_adapter=()
    [[ -n $ADAPTER ]] && peers_adapter=(--adapter "$ADAPTER")
    step "peers: wgpu_sort (ported to wgpu 30) 2^$peers_lo..2^$peers_hi" 150 0 \
        "$RAW/peers/wgpu_sort.jsonl" "$RAW/peers/wgpu_sort.log" \
        "$WK_PEERS" "${peers_adapter[@]}" --log2 "$peers_lo" "$peers_hi" --warmup "$WARMUP" \
        --warmup-ms "$WARMUP_MS" --settle-ms "$SETTLE_MS" --runs "$RUNS" "${PEERS_ARGS[@]}"
fi

# ---- the end -------------------------------------------------------------------
kill "$BUILD_PID" 2>/dev/null
cp -f "$BUILD"/*.build.log "$INFO/" 2>/dev/null
pack
echo "== done in $(($(date +%s) - START))s; $OUT/bench-raw.tar.gz ($(du -h "$OUT/bench-raw.tar.gz" | cut -f1)):"
column -t -s $'\t' "$RAW/steps.tsv" 2>/dev/null || cat "$RAW/steps.tsv"
# Exit status 1 when a step failed (its results, if any, are packed all the same).
awk -F'\t' 'NR > 1 && $2 != "0" {bad = 1} END {exit bad}' "$RAW/steps.tsv"
status=$?
# Let tee write the last lines before the command returns.
exec >&- 2>&-
wait
exit $status
