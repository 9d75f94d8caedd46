#!/usr/bin/env bash
# Session 68, call 4 (f59b5f5's wk-demos, base.gz 70ca988): the pairs' tile
# against the 48 KiB of static shared memory, by the demo's own steps through
# CUDA (512 x 14 wide counters, the library's; 512 x 15 u16 counters; 512 x
# 16 wide, 52 KiB, which ptxas refuses offline); the Vulkan sorts at
# 2^24-2^26 again, after and base alternating (call 3's keys at 2^26 was
# out of line).
set -u
OUT=$1
B=target/nvc/s68/base.gz
BIN=/tmp/wk-ab
rm -rf $BIN && mkdir -p $BIN && tar -xzf target/wk-bench.tar.gz -C $BIN && gunzip -c $B > $BIN/base && chmod +x $BIN/base
source bench/device-setup.sh
own() {
  local shape=$1 variant=$2 params=${3:-} backend=${4:-cuda}
  local envs=(WAVEKIT_DEMOS_LIBRARY=0 WAVEKIT_ONESWEEP_SHAPE=$shape)
  [[ -n $params ]] && envs+=(WAVEKIT_SHADER_PARAMS=$params)
  echo "== own $shape $variant [$params] $backend" >> $OUT/own.log
  timeout 20 env "${envs[@]}" "${WK[@]}" $BIN/wk-demos radix_sort --variant $variant --backend $backend \
    --log2 "22..=26" --warmup 3 --warmup-ms 200 --settle-ms 100 --runs 10 >> $OUT/own.log 2>&1 || echo "== exit $?" >> $OUT/own.log
}
own 512x14r2 pairs
own 512x15r2 pairs WIDE_COUNTERS=false
own 512x16r2 pairs
own 512x14r2 pairs
for round in 1 2; do
  for b in wk-demos base; do
    echo "== $b-$round: radix_sort vulkan" >> $OUT/vk.log
    timeout 40 "${WK[@]}" $BIN/$b radix_sort --variant keys --variant pairs --backend vulkan --log2 "24..=26" \
      --warmup 3 --warmup-ms 200 --settle-ms 100 --runs 10 2>&1 | grep -E "^(ok|FAIL|==)" >> $OUT/vk.log
  done
done
grep -c FAIL $OUT/*.log
