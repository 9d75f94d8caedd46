#!/usr/bin/env bash
# The look-back's fallback against the plain spin on the device machine
# (issue 32), in one call, from the repository root with .llvm-debs and .gl
# carried:
#
#   bash bench/look-back-run.sh OUT_DIR AFTER_BINARY[.gz] BEFORE_BINARY[.gz]
#
# For each setting in CONFIGS (`before`: the BEFORE binary; `after`: the
# AFTER binary as it ships; anything else: the AFTER binary with
# WAVEKIT_LOOK_BACK set to it, wavekit::device::debug's switches:
# `spins=N`, `spin` for no fallback, `stall=K`), each DEMO through
# CUDA and Vulkan at 2^LOG2 (a range), RUNS timed runs after WARMUP, into
# OUT_DIR/CONFIG-BACKEND-DEMO.json and one log. Knobs: CONFIGS="before
# after spins=1024 spin" DEMOS="scan compact radix_sort"
# LOG2=22..=26 RUNS=10 WARMUP=3.
set -uo pipefail
OUT=${1:?usage: bench/look-back-run.sh OUT_DIR AFTER BEFORE}
AFTER=${2:?usage}
BEFORE=${3:?usage}
cd "$(dirname "$0")/.." || exit 2
mkdir -p "$OUT" /tmp/wk-lb || exit 2
unpack() {
    if [[ $1 == *.gz ]]; then
        gunzip -c "$1" >"/tmp/wk-lb/$2" && chmod +x "/tmp/wk-lb/$2" && echo "/tmp/wk-lb/$2"
    else
        realpath "$1"
    fi
}
AFTER=$(unpack "$AFTER" after) || exit 2
BEFORE=$(unpack "$BEFORE" before) || exit 2
CONFIGS=${CONFIGS:-before after spins=1024 spin}
DEMOS=${DEMOS:-scan compact radix_sort}
LOG2=${LOG2:-22..=26}
RUNS=${RUNS:-10}
WARMUP=${WARMUP:-3}
source "$(dirname "$0")/device-setup.sh"
LOG=$OUT/look-back.log
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >"$LOG" 2>&1
status=0
for config in $CONFIGS; do
    for backend in cuda vulkan; do
        for demo in $DEMOS; do
            case $demo in
            scan) variants=(--variant auto) ;;
            compact) variants=(--variant u32_half) ;;
            radix_sort) variants=(--variant keys --variant pairs) ;;
            *) variants=() ;;
            esac
            if [[ $config == before ]]; then
                cmd=("${WK[@]}" "$BEFORE")
            elif [[ $config == after ]]; then
                cmd=("${WK[@]}" "$AFTER")
            else
                cmd=("${WK[@]}" "WAVEKIT_LOOK_BACK=$config" "$AFTER")
            fi
            echo "== $config $backend $demo" >>"$LOG"
            timeout 150 "${cmd[@]}" "$demo" --backend "$backend" "${variants[@]}" --log2 "$LOG2" \
                --warmup "$WARMUP" --warmup-ms 200 --runs "$RUNS" \
                --json "$OUT/$config-$backend-$demo.json" >>"$LOG" 2>&1 || {
                status=1
                echo "FAILED: $config $backend $demo" >>"$LOG"
            }
        done
    done
done
exit $status
