#!/usr/bin/env bash
# Session 64, call 1: MergeSort through Vulkan. The NVIDIA driver's code
# (its pipeline cache, decoded here afterwards with nvcachedec/nvdisasm) for
# merge_sort pairs at ITEMS 3, 5, 7, 11, 17, and the times at those shapes
# through Vulkan (CUDA's default 256 x 17 beside them), in one call.
set -u
OUT=$1
source bench/device-setup.sh >/dev/null 2>&1
BIN=/tmp/wk-ab; mkdir -p $BIN; tar -xzf target/wk-bench.tar.gz -C $BIN
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
mkdir -p /tmp/glc
for i in 3 5 7 11 17; do
  d=/tmp/glc/items$i; mkdir -p $d
  env __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_PATH=$d __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 \
    WAVEKIT_SHADER_PARAMS=ITEMS=${i}u "${WK[@]}" $BIN/wk-demos merge_sort --variant pairs_u32 --backend vulkan \
    --log2 16..=16 --warmup 1 --runs 1 > $d.log 2>&1; echo "== cap items$i rc=$?"
done
tar -C /tmp -czf $OUT/glc.tar.gz glc
P=""
for i in 3 5 7 11 17; do P="$P vk$i=after:merge_sort:pairs_u32:vulkan:ITEMS=${i}u"; done
P="$P cu17=after:merge_sort:pairs_u32:cuda"
PLAN="$P" CUB_ONLY=merge_sort LOG2_LO=20 LOG2_HI=24 RUNS=5 WARMUP=2 STEP_S=40 BUDGET_S=200 bash bench/ab-demos.sh $OUT
