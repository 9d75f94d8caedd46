#!/usr/bin/env bash
# The soak of issue 37 on the device machine: `wavekit-soak` through each of
# BACKENDS (cuda, vulkan), SOAK_SECONDS each (default 620, over ten
# minutes), sizes up to 2^MAX_LOG2 (26). One back end at a time: CUDA's
# memory figure (`cuMemGetInfo`) is the whole device's. A device call lasts at
# most 600 s, so a soak spans two calls, from the repository root with
# .llvm-debs, .gl and target/soak/wk-soak (a stripped `cargo build --release
# -p wavekit-demos --bin wavekit-soak`) carried:
#
#   BACKENDS=cuda MODE=start bash bench/soak-run.sh OUT     # starts it in its own session, waits WAIT (570) s
#   BACKENDS=cuda MODE=collect bash bench/soak-run.sh OUT   # the next call (the machine still held): waits for
#                                                           # it to end, copies its lines and log to OUT
#
# Each soak prints a JSON line a minute and a last one with its calls,
# failures and device memory at the start and the end; exit 0 means no
# failure and no growth (demos/src/bin/soak.rs).
set -uo pipefail
OUT=${1:?usage: MODE=start|collect bash bench/soak-run.sh OUT}
mkdir -p "$OUT"
RUN=/tmp/wk-soak
BIN=${SOAK_BIN:-target/soak/wk-soak}
case ${MODE:?MODE=start or collect} in
start)
    mkdir -p /opt/wk "$RUN" && [[ -f /opt/wk/.done ]] || { for f in .llvm-debs/*.deb; do dpkg -x "$f" /opt/wk; done; touch /opt/wk/.done; }
    for f in .gl/*.deb; do dpkg -x "$f" /; done
    ldconfig
    ICD=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
    [[ -f $ICD ]] && export VK_DRIVER_FILES=$ICD
    export XDG_RUNTIME_DIR=/tmp/wavekit-runtime
    mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
    cp "$BIN" "$RUN/wk-soak"
    nvidia-smi --query-gpu=name,driver_version,memory.used,memory.total --format=csv >>"$RUN/gpu-start.csv"
    for backend in ${BACKENDS:-cuda}; do
        setsid env "LD_LIBRARY_PATH=/opt/wk/usr/lib/x86_64-linux-gnu" \
            "WAVEKIT_LIBDEVICE=$PWD/.llvm-debs/libdevice.10.bc" \
            "$RUN/wk-soak" --seconds "${SOAK_SECONDS:-620}" --max-log2 "${MAX_LOG2:-26}" \
            --backend "$backend" --seed "${SEED:-1}" \
            >"$RUN/$backend.jsonl" 2>"$RUN/$backend.err" </dev/null &
        echo "$!" >"$RUN/$backend.pid"
        echo "started $backend: pid $(cat "$RUN/$backend.pid") at $(date -u '+%F %T') UTC"
    done
    sleep "${WAIT:-570}"
    for backend in ${BACKENDS:-cuda}; do echo "== $backend so far"; tail -n 2 "$RUN/$backend.jsonl"; done
    ;;
collect)
    for backend in ${BACKENDS:-cuda}; do
        while kill -0 "$(cat "$RUN/$backend.pid")" 2>/dev/null; do sleep 5; done
    done
    nvidia-smi --query-gpu=name,driver_version,memory.used,memory.total --format=csv >>"$RUN/gpu-end.csv"
    cp "$RUN"/*.jsonl "$RUN"/*.err "$RUN"/gpu-*.csv "$OUT/"
    for backend in ${BACKENDS:-cuda}; do
        echo "== $backend"; tail -n 1 "$OUT/$backend.jsonl"; grep -c FAIL "$OUT/$backend.err" || true
    done
    ;;
esac
