#!/usr/bin/env bash
set -uo pipefail
OUT=$1
source bench/device-setup.sh
BIN=/tmp/wk-ab; [[ -x $BIN/wk-demos ]] || { mkdir -p $BIN; tar -xzf target/wk-bench.tar.gz -C $BIN; }
cat $BIN/commit.txt
cap() { local name=$1; shift; local dir=/tmp/glc7/$name; rm -rf $dir; mkdir -p $dir
  env __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_PATH=$dir __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 "$@" >/tmp/glc7/$name.log 2>&1; echo "== cap $name rc=$?"; }
D=(--log2 16..=16 --warmup 1 --runs 1)
K="512x12s2 512x10s2 512x8s2 512x6s2"
P="512x10s 512x8s2 512x6s 512x10s2 512x12s3 384x8s2"
for s in $K; do cap k$s "${WK[@]}" WAVEKIT_DEMOS_LIBRARY=0 WAVEKIT_ONESWEEP_SHAPE=$s $BIN/wk-demos radix_sort --variant keys_onesweep --backend vulkan "${D[@]}"; done
for s in $P; do cap p$s "${WK[@]}" WAVEKIT_DEMOS_LIBRARY=0 WAVEKIT_ONESWEEP_SHAPE=$s $BIN/wk-demos radix_sort --variant pairs_onesweep --backend vulkan "${D[@]}"; done
tar -C /tmp -czf $OUT/glc7.tar.gz glc7
T=(--log2 22..=26 --warmup 3 --warmup-ms 200 --settle-ms 100 --runs 10)
for s in $K; do echo "== keys $s"; timeout 40 env "${WK[@]}" WAVEKIT_DEMOS_LIBRARY=0 WAVEKIT_ONESWEEP_SHAPE=$s $BIN/wk-demos radix_sort --variant keys_onesweep --backend vulkan "${T[@]}" 2>&1 | grep -E "^ok|FAIL|rror"; done
for s in $P; do echo "== pairs $s"; timeout 40 env "${WK[@]}" WAVEKIT_DEMOS_LIBRARY=0 WAVEKIT_ONESWEEP_SHAPE=$s $BIN/wk-demos radix_sort --variant pairs_onesweep --backend vulkan "${T[@]}" 2>&1 | grep -E "^ok|FAIL|rror"; done
