#!/usr/bin/env bash
# An A/B of wavekit-demos builds in one device call (same machine, same
# warm GPU), from the repository root with .llvm-debs, .gl,
# target/wk-bench.tar.gz (bench/pack.sh: the change, `after`) and the
# stripped `before` binary carried:
#
#   bash bench/ab-run.sh OUT_DIR BEFORE_BINARY[.gz]
#
# Runs bench/device-run.sh for the change (PARTS_AFTER, default
# "cuda cub vulkan": CUB for the ratios), then for BEFORE (PARTS_BEFORE,
# default "cuda vulkan"), each under OUT_DIR/after and OUT_DIR/before, with
# the same knobs (LOG2_LO, LOG2_MID, LOG2_HI, VULKAN_LOG2_HI, RUNS, WARMUP,
# DEMOS, ...: device-run.sh's). BUDGET_S (default 280) bounds each half, so
# the two fit one 10-minute call. Issue 32's cost table (the single pass
# with decoupled fallback against the plain look-back) was measured so.
set -uo pipefail
OUT=${1:?usage: bench/ab-run.sh OUT_DIR BEFORE_BINARY}
BEFORE=${2:?usage: bench/ab-run.sh OUT_DIR BEFORE_BINARY}
cd "$(dirname "$0")/.." || exit 2
mkdir -p "$OUT" || exit 2
BEFORE=$(realpath "$BEFORE")
# A gzipped binary (to keep the call under its 64 MiB) is unpacked first.
if [[ $BEFORE == *.gz ]]; then
    gunzip -c "$BEFORE" >/tmp/wk-demos-before && chmod +x /tmp/wk-demos-before || exit 2
    BEFORE=/tmp/wk-demos-before
fi
export BUDGET_S=${BUDGET_S:-280}
status=0
PARTS=${PARTS_AFTER:-cuda cub vulkan} bash bench/device-run.sh "$OUT/after" || status=1
# device-run.sh clears its staging folder first: the `before` binary is
# read from where it was carried.
PARTS=${PARTS_BEFORE:-cuda vulkan} SETUP=0 WK_DEMOS=$BEFORE \
    bash bench/device-run.sh "$OUT/before" || status=1
exit $status
