#!/usr/bin/env bash
set -uo pipefail
OUT=$1
source bench/device-setup.sh
BIN=/tmp/wk-ab; rm -rf $BIN; mkdir -p $BIN; tar -xzf target/wk-bench.tar.gz -C $BIN
cat $BIN/commit.txt
dir=/tmp/glc9/rc; mkdir -p $dir
env __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_PATH=$dir __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 "${WK[@]}" WAVEKIT_SHADER_PARAMS=RETURNING_COUNTS=true WAVEKIT_DEMOS_LIBRARY=0 WAVEKIT_ONESWEEP_SHAPE=512x12s2 $BIN/wk-demos radix_sort --variant keys_onesweep --backend vulkan --log2 16..=16 --warmup 1 --runs 1 > /dev/null 2>&1; echo "== cap rc=$?"
tar -C /tmp -czf $OUT/glc9.tar.gz glc9
T=(--log2 22..=26 --warmup 3 --warmup-ms 200 --settle-ms 100 --runs 10)
for round in 1 2; do for v in base: rc:RETURNING_COUNTS=true; do
  echo "== keys 512x12s2 ${v%%:*} $round"; timeout 30 env "${WK[@]}" WAVEKIT_SHADER_PARAMS=${v#*:} WAVEKIT_DEMOS_LIBRARY=0 WAVEKIT_ONESWEEP_SHAPE=512x12s2 $BIN/wk-demos radix_sort --variant keys_onesweep --backend vulkan "${T[@]}" 2>&1 | grep -E "^ok|FAIL|rror"
done; done
for v in base: rc:RETURNING_COUNTS=true; do
  echo "== pairs 512x10s ${v%%:*}"; timeout 30 env "${WK[@]}" WAVEKIT_SHADER_PARAMS=${v#*:} WAVEKIT_DEMOS_LIBRARY=0 WAVEKIT_ONESWEEP_SHAPE=512x10s $BIN/wk-demos radix_sort --variant pairs_onesweep --backend vulkan "${T[@]}" 2>&1 | grep -E "^ok|FAIL|rror"
done
