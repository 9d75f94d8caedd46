#!/usr/bin/env bash
set -uo pipefail
OUT=$1
source bench/device-setup.sh
BIN=/tmp/wk-ab; [[ -x $BIN/wk-demos ]] || { mkdir -p $BIN; tar -xzf target/wk-bench.tar.gz -C $BIN; }
cap() { local name=$1; shift; local dir=/tmp/glc3/$name; rm -rf $dir; mkdir -p $dir
  env __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_PATH=$dir __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 "$@" >/tmp/glc3/$name.log 2>&1; echo "== cap $name rc=$?"; }
D=(--log2 16..=16 --warmup 1 --runs 1)
for s in 512x6 512x12 512x15 256x12; do
  cap k$s "${WK[@]}" WAVEKIT_DEMOS_LIBRARY=0 WAVEKIT_ONESWEEP_SHAPE=$s $BIN/wk-demos radix_sort --variant keys_onesweep --backend vulkan "${D[@]}"
done
tar -C /tmp -czf $OUT/glc3.tar.gz glc3
T=(--log2 22..=26 --warmup 3 --warmup-ms 200 --settle-ms 100 --runs 5)
for s in 512x6 512x12 512x15 256x12; do
  for b in vulkan cuda; do
  echo "== $b keys_onesweep $s"; timeout 50 env "${WK[@]}" WAVEKIT_DEMOS_LIBRARY=0 WAVEKIT_ONESWEEP_SHAPE=$s $BIN/wk-demos radix_sort --variant keys_onesweep --backend $b "${T[@]}" 2>&1 | grep -E "^ok|FAIL|rror"
  done
done
