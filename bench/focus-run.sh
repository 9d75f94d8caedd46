#!/usr/bin/env bash
# A focused run on the device machine (issue 17's measure-change-measure
# loop), in one command, from the repository root with .llvm-debs, .gl and
# target/wk-bench.tar.gz (bench/pack.sh) carried:
#
#   bash bench/focus-run.sh OUT_DIR
#
# Steps, each under its own time limit, logged to OUT_DIR (kept small: the
# device tool brings back at most 8 files, so everything goes into one
# log plus one tarball):
#   conformance  `wavekit check` through CUDA and through Vulkan
#   demos        DEMOS through CUDA (and Vulkan with VULKAN=1) at 2^LOG2_LO..2^LOG2_HI
#   shapes       the OneSweep sort at 2^SHAPES_LOG2 for each shape in SHAPES
#                (WAVEKIT_ONESWEEP_SHAPE, demos/src/radix_sort/onesweep.rs)
#                through SHAPES_BACKEND (cuda; or vulkan)
#   params       DEMOS (VARIANT's variants) through PARAMS_BACKEND (cuda; or
#                vulkan, or "cuda vulkan") at 2^LOG2_LO..2^LOG2_HI once per entry
#                of PARAMS, each a WAVEKIT_SHADER_PARAMS value
#                (wavekit::device::debug::with_shader_params: the shader
#                variants, e.g. "- PEERS=2u WIDE_COUNTERS=true,PEERS=2u";
#                "-" is the defaults)
#   profile      Nsight Compute on the OneSweep sort at 2^PROFILE_LOG2 (24):
#                wavekit's kernels and CUB's onesweep kernels
#   cub          CUB's DeviceScan, DeviceSelect and DeviceRadixSort on the
#                same sizes (bench/ref/cub_ref.cu, built here by nvcc); CUB_ONLY
#                names other cub_ref demos (e.g. contact_sort), and top_k the
#                packed cub_topk (DeviceTopK, CCCL 13.2)
#   probe        the Vulkan allocation probe (wk-alloc-probe) at 2^PROBE_LOG2,
#                every pattern in one process, then each in its own, once
#                per --staging-mib value in PROBE_STAGING (default 0)
#   cliff        DEMOS through Vulkan at each size 2^LOG2_LO..2^LOG2_HI in its
#                own process, next to all sizes in one process; the JSON
#                reports in OUT_DIR/cliff-raw.tar.gz, for wavekit-bench --raw
#   unchecked    DEMOS through Vulkan with wgpu's bounds checks off
#                (WAVEKIT_DEMOS_UNCHECKED=1) at 2^LOG2_LO..2^LOG2_HI
#   clocks       nvidia-smi's P-state and clocks every 100 ms around the probe
#                after an idle period and the reduce demo, short and long
#                warm-ups (is the slowdown idle time rather than allocation?)
#   tune         `wavekit tune` on the Vulkan adapter; the profile goes to
#                OUT_DIR/profile/
# Knobs: STEPS="conformance demos shapes cub" DEMOS="scan compact radix_sort"
# LOG2_LO=24 LOG2_HI=28 SHAPES="512x6 512x15" SHAPES_LOG2=26 RUNS=10
# WARMUP=3 WARMUP_MS=200 VULKAN=0.
set -uo pipefail
OUT=${1:?usage: bench/focus-run.sh OUT_DIR}
mkdir -p "$OUT"
STEPS=${STEPS:-conformance demos shapes cub}
DEMOS=${DEMOS:-scan compact radix_sort}
LO=${LOG2_LO:-24}
HI=${LOG2_HI:-28}
SHAPES=${SHAPES:-512x6 512x15}
SHAPES_LOG2=${SHAPES_LOG2:-26}
# SHAPES_BACKEND=vulkan: the shapes step through wgpu instead of CUDA (the
# library's shapes there are 512x12s2 for keys, 512x10s for pairs: `s`, the
# tile staged in the counter rows, in 2 parts with `s2`).
SHAPES_BACKEND=${SHAPES_BACKEND:-cuda}
RUNS=${RUNS:-10}
WARMUP=${WARMUP:-3}
WARMUP_MS=${WARMUP_MS:-200}
LOG=$OUT/focus.log
# VARIANT="keys pairs": only these variants in the demos, cliff and
# unchecked steps (default: every variant).
VARIANTS=()
for v in ${VARIANT:-}; do VARIANTS+=(--variant "$v"); done
SHAPE_VARIANTS=(--variant keys --variant pairs)
[[ -n ${VARIANT:-} ]] && SHAPE_VARIANTS=("${VARIANTS[@]}")
RESULTS=/tmp/wk-focus
rm -rf "$RESULTS" && mkdir -p "$RESULTS/bin"
exec > >(tee -a "$LOG") 2>&1
has() { [[ " $STEPS " == *" $1 "* ]]; }

source "$(dirname "$0")/device-setup.sh"
tar -xzf target/wk-bench.tar.gz -C "$RESULTS/bin"
BIN=$RESULTS/bin
echo "== focus-run $(date -u '+%F %T') UTC, commit $(cat "$BIN/commit.txt"), steps [$STEPS]"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader

if has cub || has profile; then
    (nvcc -O3 -std=c++17 -arch=sm_90 -o "$RESULTS/cub_ref" bench/ref/cub_ref.cu >"$RESULTS/cub_build.log" 2>&1) &
    CUB_BUILD=$!
fi

run() { # LIMIT NAME CMD...: one step, its output in the log
    local limit=$1 name=$2
    shift 2
    echo "---- $name ($(date -u +%T))"
    timeout --kill-after=5 "$limit" "$@" 2>&1 | grep -v '^ *$' | tail -n "${TAIL:-40}"
    echo "     exit ${PIPESTATUS[0]}"
}

if has conformance; then
    # The report as JSON into OUT_DIR (docs/conformance records), then its
    # verdict lines.
    for b in cuda vulkan; do
        run 150 "wavekit check --backend $b --json" sh -c '"$@" >"$0"' "$OUT/conformance-$b.json" \
            "${WK[@]}" "$BIN/wavekit" check --backend "$b" --json
        python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"]
bad = [x for x in r if x["failed_cases"] or x["cases"] == 0]
cases = sum(x["cases"] for x in r)
lanes = sum(x["lanes_compared"] for x in r)
print(sys.argv[2], "|", d["adapter"], "|", d["target"], "| adapter check:", d["adapter_check"]["passed"])
print(f"{len(r) - len(bad)}/{len(r)} instance checks passed ({cases} cases, {lanes} lanes compared)")
for x in bad[:20]: print("   FAIL", json.dumps(x)[:300])' "$OUT/conformance-$b.json" "$b" 2>&1
    done
fi
if has demos; then
    for demo in $DEMOS; do
        run 200 "$demo CUDA 2^$LO..2^$HI" "${WK[@]}" "$BIN/wk-demos" "$demo" --backend cuda \
            --log2 "$LO..=$HI" --warmup "$WARMUP" --warmup-ms "$WARMUP_MS" --runs "$RUNS"
        if [[ ${VULKAN:-0} == 1 ]]; then
            run 200 "$demo Vulkan 2^$LO..2^$HI" "${WK[@]}" "$BIN/wk-demos" "$demo" --backend vulkan \
                --log2 "$LO..=$HI" --warmup "$WARMUP" --warmup-ms "$WARMUP_MS" --runs "$RUNS"
        fi
    done
fi
if has shapes; then
    for shape in $SHAPES; do
        run 120 "radix_sort shape $shape $SHAPES_BACKEND 2^$SHAPES_LOG2" env WAVEKIT_ONESWEEP_SHAPE="$shape" \
            "${WK[@]}" "$BIN/wk-demos" radix_sort "${SHAPE_VARIANTS[@]}" --backend "$SHAPES_BACKEND" \
            --log2 "$SHAPES_LOG2..=$SHAPES_LOG2" --warmup "$WARMUP" --warmup-ms "$WARMUP_MS" --runs "$RUNS"
    done
fi
if has params; then
    for backend in ${PARAMS_BACKEND:-cuda}; do
        for params in ${PARAMS:--}; do
            [[ $params == - ]] && params=
            for demo in $DEMOS; do
                run 200 "$demo $backend 2^$LO..2^$HI, shader params [${params}]" \
                    env WAVEKIT_SHADER_PARAMS="$params" "${WK[@]}" "$BIN/wk-demos" "$demo" "${VARIANTS[@]}" \
                    --backend "$backend" --log2 "$LO..=$HI" --warmup "$WARMUP" --warmup-ms "$WARMUP_MS" \
                    --runs "$RUNS"
            done
        done
    done
fi
if has profile; then
    # Nsight Compute on one sort of 2^PROFILE_LOG2 keys: every kernel's
    # duration, occupancy and warp stalls, wavekit's and CUB's.
    PL=${PROFILE_LOG2:-24}
    SECTIONS=(--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats)
    run 200 "ncu wavekit radix_sort keys 2^$PL" ncu "${SECTIONS[@]}" --kernel-name regex:"onesweep|histogram|digit_offsets" --launch-count 6 \
        "${WK[@]}" "$BIN/wk-demos" radix_sort --variant keys --backend cuda --log2 "$PL..=$PL" \
        --warmup 1 --warmup-ms 0 --runs 1
    wait "$CUB_BUILD"
    run 200 "ncu CUB radix_sort keys 2^$PL" ncu "${SECTIONS[@]}" --kernel-name regex:Onesweep \
            --launch-count 4 "$RESULTS/cub_ref" --log2 "$PL" "$PL" --only radix_sort --warmup 0 \
            --warmup-ms 0 --runs 1
fi
if has cub; then
    wait "$CUB_BUILD"
    CUB=$RESULTS/cub_ref
    [[ -x $CUB ]] || CUB=$BIN/cub_ref
    run 150 "CUB ($CUB)" "$CUB" --log2 "$LO" "$HI" --only "${CUB_ONLY:-scan,compact,radix_sort}" \
        --warmup "$WARMUP" --warmup-ms "$WARMUP_MS" --runs "$RUNS"
    # top_k: CUB's DeviceTopK is the packed cub_topk (CCCL 13.2; bench/pack.sh).
    if [[ ,${CUB_ONLY:-}, == *,top_k,* ]]; then
        run 150 "CUB DeviceTopK ($BIN/cub_topk)" "$BIN/cub_topk" --log2 "$LO" "$HI" --only top_k \
            --warmup "$WARMUP" --warmup-ms "$WARMUP_MS" --runs "$RUNS"
    fi
fi
if has probe; then
    PROBE=$BIN/wk-alloc-probe
    PL=${PROBE_LOG2:-28}
    # PROBE_STAGING: one pass per --staging-mib value (0: full-size staging).
    for st in ${PROBE_STAGING:-0}; do
        run 200 "alloc probe, every pattern in one process, 2^$PL, staging $st MiB" "${WK[@]}" "$PROBE" \
            --log2 "$PL" --runs "$RUNS" --staging-mib "$st"
        for p in ${PROBE_PATTERNS:-fresh upload churn churn-poll reuse readback-first}; do
            run 120 "alloc probe $p alone, 2^$PL, staging $st MiB" "${WK[@]}" "$PROBE" --log2 "$PL" \
                --runs "$RUNS" --pattern "$p" --staging-mib "$st"
        done
    done
fi
if has clocks; then
    # Is the slowdown idle time (clocks) rather than allocation? The GPU's
    # P-state and clocks every 100 ms, next to the probe after an idle
    # period and the reduce demo, each with a short and a long warm-up.
    nvidia-smi --query-gpu=timestamp,pstate,clocks.sm,clocks.mem,power.draw \
        --format=csv,noheader -lms 100 >"$RESULTS/clocks.csv" 2>&1 &
    SMI=$!
    PL=${PROBE_LOG2:-28}
    for wm in 200 3000; do
        for idle in 0 3000; do
            run 120 "alloc probe fresh, idle $idle ms, warm-up $wm ms ($(date -u +%T.%N | cut -c1-12))" \
                "${WK[@]}" "$BIN/wk-alloc-probe" --log2 "$PL" --runs "$RUNS" --pattern fresh \
                --pattern churn --pattern reuse --idle-ms "$idle" --warmup-ms "$wm"
        done
        run 200 "reduce Vulkan 2^$HI, warm-up $wm ms ($(date -u +%T.%N | cut -c1-12))" "${WK[@]}" \
            "$BIN/wk-demos" reduce --backend vulkan --log2 "$HI..=$HI" --warmup "$WARMUP" \
            --warmup-ms "$wm" --runs "$RUNS"
    done
    # How long the slow state lasts: 4 s of batches after a 200 ms warm-up.
    run 120 "alloc probe reuse, churn-upload, reuse: 4 s traces ($(date -u +%T.%N | cut -c1-12))" \
        "${WK[@]}" "$BIN/wk-alloc-probe" --log2 "$PL" --runs "$RUNS" --pattern reuse \
        --pattern churn-upload --pattern reuse --warmup-ms 200 --trace-ms 4000
    kill "$SMI"
    echo "---- clocks (pstate, SM MHz, memory MHz, W), one line per distinct state"
    awk -F', ' '{k=$2" "$3" "$4; if (k!=last) {print; last=k}}' "$RESULTS/clocks.csv" | tail -n 80
    cp "$RESULTS/clocks.csv" "$OUT/"
fi
if has cliff; then
    for demo in $DEMOS; do
        mkdir -p "$RESULTS/raw/wavekit" "$RESULTS/raw/alone"
        run 300 "$demo Vulkan 2^$LO..2^$HI, one process" "${WK[@]}" "$BIN/wk-demos" "$demo" --backend vulkan \
            --log2 "$LO..=$HI" --warmup "$WARMUP" --warmup-ms "$WARMUP_MS" --runs "$RUNS" "${VARIANTS[@]}" \
            --json "$RESULTS/raw/wavekit/wavekit-vulkan-$demo.json"
        for ((n = LO; n <= HI; n++)); do
            run 120 "$demo Vulkan 2^$n alone" "${WK[@]}" "$BIN/wk-demos" "$demo" --backend vulkan \
                --log2 "$n..=$n" --warmup "$WARMUP" --warmup-ms "$WARMUP_MS" --runs "$RUNS" "${VARIANTS[@]}" \
                --json "$RESULTS/raw/alone/wavekit-vulkan-$demo-$n.json"
        done
    done
    # For `wavekit-bench --raw` (its cliff.md compares the two).
    tar -czf "$OUT/cliff-raw.tar.gz" -C "$RESULTS" raw
fi
if has unchecked; then
    for demo in $DEMOS; do
        run 300 "$demo Vulkan 2^$LO..2^$HI, bounds checks off" env WAVEKIT_DEMOS_UNCHECKED=1 \
            "${WK[@]}" "$BIN/wk-demos" "$demo" --backend vulkan \
            --log2 "$LO..=$HI" --warmup "$WARMUP" --warmup-ms "$WARMUP_MS" --runs "$RUNS"
    done
fi
if has tune; then
    TAIL=80 run 300 "wavekit tune (Vulkan)" "${WK[@]}" "$BIN/wavekit" tune --dir "$OUT/profile"
fi
echo "== done $(date -u +%T)"
