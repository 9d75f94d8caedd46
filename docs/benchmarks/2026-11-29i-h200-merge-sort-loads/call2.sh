#!/usr/bin/env bash
# Session 64, call 2: MergeSort with the striped loads through registers
# (e297539) against the base build (706dfaf's pack: merge_sort.wgsl as on
# main before), through Vulkan at ITEMS 3..17 and CUDA's 256 x 17; the
# driver's code of the new kernels at ITEMS 7 and 17.
set -u
OUT=$1
source bench/device-setup.sh >/dev/null 2>&1
BIN=/tmp/wk-ab; mkdir -p $BIN; tar -xzf target/wk-bench.tar.gz -C $BIN
mkdir -p /tmp/glc
for i in 7 17; do
  d=/tmp/glc/new$i; mkdir -p $d
  env __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_PATH=$d __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 \
    WAVEKIT_SHADER_PARAMS=ITEMS=${i}u "${WK[@]}" $BIN/wk-demos merge_sort --variant pairs_u32 --backend vulkan \
    --log2 16..=16 --warmup 1 --runs 1 > $d.log 2>&1; echo "== cap new$i rc=$?"
done
tar -C /tmp -czf $OUT/glc.tar.gz glc
B=target/nvc/s64/base.gz
P="vk3-base=$B:merge_sort:pairs_u32:vulkan"
for i in 3 5 7 9 11 13 17; do P="$P vk$i=after:merge_sort:pairs_u32:vulkan:ITEMS=${i}u"; done
P="$P cu17=after:merge_sort:pairs_u32:cuda cu17-base=$B:merge_sort:pairs_u32:cuda"
PLAN="$P" CUB_ONLY=merge_sort LOG2_LO=20 LOG2_HI=26 RUNS=5 WARMUP=2 STEP_S=45 BUDGET_S=330 bash bench/ab-demos.sh $OUT
