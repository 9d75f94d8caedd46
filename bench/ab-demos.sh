#!/usr/bin/env bash
# A/B of chosen demo variants between builds, in one device call, from the
# repository root with .llvm-debs, .gl and target/wk-bench.tar.gz
# (bench/pack.sh: the `after` build) carried:
#
#   PLAN="LABEL=BINARY[.gz]:DEMO:VARIANT[,VARIANT]:BACKEND[:PARAMS] ..." bash bench/ab-demos.sh OUT_DIR
#
# Each PLAN entry runs `wk-demos DEMO --variant ... --backend BACKEND` from
# BINARY (`after`: the packed wk-demos; a .gz is unpacked first), with
# WAVEKIT_SHADER_PARAMS=PARAMS where given (`ITEMS=16u,BLOCK=256u`), at
# 2^LOG2_LO..2^LOG2_HI, in PLAN's order, into OUT_DIR/ab.log (one log: the
# device tool brings back few files), each under STEP_S seconds and none
# past BUDGET_S from the start, so that the entries that matter most go
# first. CUB_ONLY (cub_ref's --only, e.g. "arg_reduce,adjacent_difference")
# adds CUB on the same sizes after the first entry, built here by nvcc (the
# packed cub_ref if that fails); `top_k` in it runs the packed cub_topk
# (CUB's DeviceTopK, CCCL 13.2, which this machine's nvcc lacks: bench/pack.sh
# builds it). Knobs: LOG2_LO=22 LOG2_HI=26 RUNS=10 WARMUP=3 WARMUP_MS=200
# SETTLE_MS=100 STEP_S=60 CUB_S=STEP_S (the CUB steps' limit) BUDGET_S=300.
set -uo pipefail
OUT=${1:?usage: bench/ab-demos.sh OUT_DIR}
mkdir -p "$OUT"
LOG=$OUT/ab.log
LO=${LOG2_LO:-22}
HI=${LOG2_HI:-26}
RUNS=${RUNS:-10}
WARMUP=${WARMUP:-3}
WARMUP_MS=${WARMUP_MS:-200}
SETTLE_MS=${SETTLE_MS:-100}
STEP_S=${STEP_S:-60}
CUB_S=${CUB_S:-$STEP_S}
BUDGET_S=${BUDGET_S:-300}
START=$(date +%s)
BIN=/tmp/wk-ab
rm -rf "$BIN" && mkdir -p "$BIN"
exec > >(tee -a "$LOG") 2>&1

source "$(dirname "$0")/device-setup.sh"
tar -xzf target/wk-bench.tar.gz -C "$BIN"
echo "== ab-demos $(date -u '+%F %T') UTC, after = $(cat "$BIN/commit.txt")"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader

# CUB_ONLY without top_k: what cub_ref runs; whether cub_topk runs.
CUB_REF_ONLY=$(tr ',' '\n' <<<"${CUB_ONLY:-}" | grep -v '^top_k$' | paste -sd, -)
CUB_TOPK=0
[[ ,${CUB_ONLY:-}, == *,top_k,* ]] && CUB_TOPK=1
if [[ -n $CUB_REF_ONLY ]]; then
    (nvcc -O3 -std=c++17 -arch=sm_90 -o "$BIN/cub_ref_built" bench/ref/cub_ref.cu >"$BIN/cub.build.log" 2>&1) &
    CUB_PID=$!
fi

left() { echo $((BUDGET_S - ($(date +%s) - START))); }

binary() {
    local path=$1
    [[ $path == after ]] && { echo "$BIN/wk-demos"; return; }
    if [[ $path == *.gz ]]; then
        local out="$BIN/$(basename "$path" .gz)"
        [[ -x $out ]] || { gunzip -c "$path" >"$out" && chmod +x "$out"; }
        echo "$out"
    else
        echo "$path"
    fi
}

first=1
for entry in ${PLAN:?PLAN names the runs}; do
    label=${entry%%=*}
    IFS=: read -r path demo variants backend params <<<"${entry#*=}"
    budget=$(left)
    ((budget > 5)) || { echo "== out of budget before $entry"; break; }
    ((budget > STEP_S)) && budget=$STEP_S
    flags=()
    for v in ${variants//,/ }; do flags+=(--variant "$v"); done
    echo "== $label: $demo [$variants] $backend${params:+ [$params]} 2^$LO..2^$HI ($(binary "$path"))"
    env_params=()
    [[ -n ${params:-} ]] && env_params=("WAVEKIT_SHADER_PARAMS=$params")
    timeout "$budget" env "${env_params[@]}" "${WK[@]}" "$(binary "$path")" "$demo" "${flags[@]}" --backend "$backend" \
        --log2 "$LO..=$HI" --warmup "$WARMUP" --warmup-ms "$WARMUP_MS" --settle-ms "$SETTLE_MS" \
        --runs "$RUNS" || echo "== exit $? ($label $demo $backend)"
    if ((first)) && [[ -n ${CUB_ONLY:-} ]]; then
        first=0
        if [[ -n $CUB_REF_ONLY ]]; then
            wait "$CUB_PID"
            cub=$BIN/cub_ref_built
            [[ -x $cub ]] || { tail -n 5 "$BIN/cub.build.log"; cub=$BIN/cub_ref; }
            echo "== CUB ($cub): $CUB_REF_ONLY 2^$LO..2^$HI"
            timeout "$CUB_S" "$cub" --log2 "$LO" "$HI" --warmup "$WARMUP" --warmup-ms "$WARMUP_MS" \
                --runs "$RUNS" --only "$CUB_REF_ONLY" || echo "== exit $? (CUB)"
        fi
        if ((CUB_TOPK)); then
            echo "== CUB DeviceTopK ($BIN/cub_topk, packed): top_k 2^$LO..2^$HI"
            timeout "$CUB_S" "$BIN/cub_topk" --log2 "$LO" "$HI" --warmup "$WARMUP" --warmup-ms "$WARMUP_MS" \
                --runs "$RUNS" --only top_k || echo "== exit $? (CUB DeviceTopK)"
        fi
    fi
done
echo "== done $(date -u '+%T'), $(( $(date +%s) - START )) s"
