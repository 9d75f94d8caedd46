#!/usr/bin/env bash
set -uo pipefail
OUT=$1
source bench/device-setup.sh
BIN=/tmp/wk-ab; rm -rf $BIN; mkdir -p $BIN; tar -xzf target/wk-bench.tar.gz -C $BIN
cat $BIN/commit.txt
cap() { local name=$1; shift; local dir=/tmp/glc8/$name; rm -rf $dir; mkdir -p $dir
  env __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_PATH=$dir __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 "$@" >/tmp/glc8/$name.log 2>&1; echo "== cap $name rc=$?"; }
D=(--log2 16..=16 --warmup 1 --runs 1)
V="base: P:PACKED_DIGITS=true LP:LATE_VALUES=true,PACKED_DIGITS=true"
for s in 512x10s 512x12s2; do for v in $V; do
  cap p$s-${v%%:*} "${WK[@]}" WAVEKIT_SHADER_PARAMS=${v#*:} WAVEKIT_DEMOS_LIBRARY=0 WAVEKIT_ONESWEEP_SHAPE=$s $BIN/wk-demos radix_sort --variant pairs_onesweep --backend vulkan "${D[@]}"
done; done
tar -C /tmp -czf $OUT/glc8.tar.gz glc8
T=(--log2 22..=26 --warmup 3 --warmup-ms 200 --settle-ms 100 --runs 10)
for s in 512x10s 512x12s2; do for v in $V; do
  echo "== pairs $s ${v%%:*}"; timeout 40 env "${WK[@]}" WAVEKIT_SHADER_PARAMS=${v#*:} WAVEKIT_DEMOS_LIBRARY=0 WAVEKIT_ONESWEEP_SHAPE=$s $BIN/wk-demos radix_sort --variant pairs_onesweep --backend vulkan "${T[@]}" 2>&1 | grep -E "^ok|FAIL|rror"
done; done
echo "== pairs 512x10s base again"; timeout 40 env "${WK[@]}" WAVEKIT_DEMOS_LIBRARY=0 WAVEKIT_ONESWEEP_SHAPE=512x10s $BIN/wk-demos radix_sort --variant pairs_onesweep --backend vulkan "${T[@]}" 2>&1 | grep -E "^ok|FAIL|rror"
