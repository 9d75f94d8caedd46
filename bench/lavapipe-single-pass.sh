#!/usr/bin/env bash
# The single pass without forward progress, checked (issue 32): the
# look-back scan, selection and OneSweep sort of wavekit::device, forced on
# lavapipe with its DEFAULT threading (one worker per core, preempted at
# will: no LP_NUM_THREADS), RUNS runs each at 2^LOG2 elements, at lavapipe's
# subgroup sizes 4, 8 and 16 (LP_NATIVE_VECTOR_WIDTH 128, 256, 512) and on
# emulated subgroups of 32. Every run has fresh random input and is checked
# in full against the CPU; the run fails on any wrong result.
#
#   bash bench/lavapipe-single-pass.sh [OUT_FILE]   # RUNS=1000 SORT_RUNS=RUNS LOG2=20
#
# Not part of `make test` (about 65 minutes on two cores at the defaults:
# 0.1 s a scan, 0.14 s a selection, 0.75 s a sort at 2^20).
# The record of a run is under docs/benchmarks/ (the date, the machine,
# the commit, this command).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-1000}
SORT_RUNS=${SORT_RUNS:-$RUNS}
LOG2=${LOG2:-20}
OUT=${1:-/dev/stdout}
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp/wavekit-runtime}
mkdir -p -m 700 "$XDG_RUNTIME_DIR"
unset LP_NUM_THREADS
cargo build --release --locked --features runner --example single_pass_runs
bin=target/release/examples/single_pass_runs
{
    echo "# $(date -u +%F) $(git describe --always --dirty) $(nproc) cores, RUNS=$RUNS SORT_RUNS=$SORT_RUNS LOG2=$LOG2"
    status=0
    for width in 128 256 512; do
        echo "## LP_NATIVE_VECTOR_WIDTH=$width"
        LP_NATIVE_VECTOR_WIDTH=$width "$bin" --runs "$RUNS" --sort-runs "$SORT_RUNS" --log2 "$LOG2" || status=1
    done
    echo "## emulated subgroups"
    "$bin" --runs "$RUNS" --sort-runs "$SORT_RUNS" --log2 "$LOG2" --emulated || status=1
    exit $status
} 2>&1 | tee "$OUT"
