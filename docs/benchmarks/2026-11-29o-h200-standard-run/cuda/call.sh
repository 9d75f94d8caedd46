#!/usr/bin/env bash
# Session 67, call A: issue 33's standard run, part 1 of 2 (CUDA and CUB,
# 2^10..2^28, the six default demos), on the build of f8badcb.
set -u
OUT=$1
PARTS="cuda cub" BUDGET_S=555 bash bench/device-run.sh "$OUT"
