#!/usr/bin/env bash
# Session 69, call C: issue 33's standard run, part 2 of 2 (Vulkan with the
# cliff check, CUB, the micro-benchmarks and the peer wgpu_sort, 2^10..2^26,
# the six default demos), on the build of 5c62576.
set -u
OUT=$1
PARTS="cub micro vulkan peers" LOG2_HI=26 BUDGET_S=555 bash bench/device-run.sh "$OUT"
