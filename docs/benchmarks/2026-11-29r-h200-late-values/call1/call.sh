#!/usr/bin/env bash
# Session 68, call 1: the pair sort's values loaded after the rank (VALUES_AT)
# and larger tiles, through CUDA by the demo's own steps at forced shapes;
# the library (this build, 70ca988 + the staging tests dropped) against
# 70ca988 (base.gz) through CUDA and Vulkan with CUB; the Vulkan scan's
# shuffled lowering (ad807d3, first GPU run) against CUB.
set -u
OUT=$1
B=target/nvc/s68/base.gz
PLAN="cu=after:radix_sort:keys,pairs:cuda cu-base=$B:radix_sort:keys,pairs:cuda" \
  CUB_ONLY=radix_sort LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=40 CUB_S=50 BUDGET_S=140 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab1.log
BIN=/tmp/wk-ab
source bench/device-setup.sh
own() {
  local shape=$1 variant=$2 params=${3:-} backend=${4:-cuda}
  local envs=(WAVEKIT_DEMOS_LIBRARY=0 WAVEKIT_ONESWEEP_SHAPE=$shape)
  [[ -n $params ]] && envs+=(WAVEKIT_SHADER_PARAMS=$params)
  echo "== own $shape $variant [$params] $backend" >> $OUT/own.log
  timeout 20 env "${envs[@]}" "${WK[@]}" $BIN/wk-demos radix_sort --variant $variant --backend $backend \
    --log2 "22..=26" --warmup 3 --warmup-ms 200 --settle-ms 100 --runs 10 >> $OUT/own.log 2>&1 || echo "== exit $?" >> $OUT/own.log
}
own 512x12 pairs
own 512x12 pairs VALUES_AT=1u
own 512x16r2 pairs VALUES_AT=1u
own 384x23r2 pairs VALUES_AT=1u
own 384x23r2 pairs VALUES_AT=2u
own 512x16r2 pairs VALUES_AT=2u
own 384x20r2 pairs VALUES_AT=1u
own 512x14r2 pairs VALUES_AT=1u
own 512x15 keys
own 512x15r2 keys
own 512x16r2 keys
own 384x23r2 keys
PLAN="vk=after:radix_sort:keys,pairs:vulkan vk-base=$B:radix_sort:keys,pairs:vulkan vk1=after:radix_sort:pairs:vulkan:VALUES_AT=1u vk2=after:radix_sort:pairs:vulkan:VALUES_AT=2u sc=after:scan:auto,inclusive_max_u32:vulkan sc-base=$B:scan:auto:vulkan" \
  CUB_ONLY=radix_sort,scan LOG2_LO=18 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 CUB_S=50 BUDGET_S=190 bash bench/ab-demos.sh $OUT
mv $OUT/ab.log $OUT/ab2.log
grep -c FAIL $OUT/*.log
