#!/usr/bin/env bash
set -uo pipefail
OUT=$1
source bench/device-setup.sh
BIN=/tmp/wk-ab; [[ -x $BIN/wk-demos ]] || { mkdir -p $BIN; tar -xzf target/wk-bench.tar.gz -C $BIN; }
cat $BIN/commit.txt
cap() { local name=$1; shift; local dir=/tmp/glc6/$name; rm -rf $dir; mkdir -p $dir
  env __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_PATH=$dir __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 "$@" >/tmp/glc6/$name.log 2>&1; echo "== cap $name rc=$?"; }
D=(--log2 16..=16 --warmup 1 --runs 1)
for s in 512x10s 512x12s2 512x14s2 512x16s2 256x24s2 384x12s2; do
  cap k$s "${WK[@]}" WAVEKIT_DEMOS_LIBRARY=0 WAVEKIT_ONESWEEP_SHAPE=$s $BIN/wk-demos radix_sort --variant keys_onesweep --backend vulkan "${D[@]}"
done
for s in 512x10s 512x12s2; do
  cap p$s "${WK[@]}" WAVEKIT_DEMOS_LIBRARY=0 WAVEKIT_ONESWEEP_SHAPE=$s $BIN/wk-demos radix_sort --variant pairs_onesweep --backend vulkan "${D[@]}"
done
tar -C /tmp -czf $OUT/glc6.tar.gz glc6
ls -la $OUT
