#!/usr/bin/env bash
# Session 55, call 8: ReduceByKey through Vulkan at 2^25..2^26, five times in
# one process each, with the GPU's clocks and temperature before each (call
# 7 had 2^26 at 854.6 us against 152.2 at 2^25).
set -u
OUT=$1
BIN=/tmp/wk-ab
rm -rf $BIN && mkdir -p $BIN && tar -xzf target/wk-bench.tar.gz -C $BIN
source bench/device-setup.sh
for r in 1 2 3 4 5; do
  nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw,clocks_throttle_reasons.active --format=csv,noheader
  "${WK[@]}" timeout 60 $BIN/wk-demos by_key --variant reduce_sum_u32 --backend vulkan --log2 "25..=26" --runs 10 --warmup 3 2>&1 | grep -v "loop not unrolled" | grep "^ok\|FAIL"
done
for r in 1 2; do
  "${WK[@]}" timeout 60 $BIN/wk-demos by_key --variant reduce_sum_u32 --backend cuda --log2 "26..=26" --runs 10 --warmup 3 2>&1 | grep "^ok\|FAIL"
done
