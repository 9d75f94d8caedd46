#!/usr/bin/env bash
# Session 69, call B: issue 33's standard run, part 1 of 2 (CUDA and CUB,
# 2^10..2^28, the six default demos), on the build of 5c62576.
set -u
OUT=$1
PARTS="cuda cub" BUDGET_S=555 bash bench/device-run.sh "$OUT"
