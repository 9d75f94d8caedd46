#!/usr/bin/env bash
# Session 52, call 4: dispatches timed with pass and encoder timestamps; the library's Reduce and Scan alike
set -u
OUT=$1
source bench/device-setup.sh >/dev/null 2>&1
mkdir -p /tmp/wk-ab && tar -xzf target/wk-bench.tar.gz -C /tmp/wk-ab
for i in 1; do timeout 120 "${WK[@]}" XDG_RUNTIME_DIR=/tmp/wavekit-runtime /tmp/wk-ab/floor_tmp; done 2>&1 | tee $OUT/floor.log
