#!/usr/bin/env bash
# Session 54, call 9: NVIDIA's Vulkan code for MergeSort (main's kernels,
# ec9de0a's wk-demos) at 256 x 3 (wgpu's default) and 256 x 17: the
# driver's shader disk cache of one run each, for nvcachedec and nvdisasm
# here (as 2026-11-27r did for the OneSweep pass).
set -u
OUT=$1
source bench/device-setup.sh
BIN=/tmp/wk-ab; rm -rf $BIN; mkdir -p $BIN
gunzip -c target/wk-demos-base.gz > $BIN/wk-demos && chmod +x $BIN/wk-demos
for it in 3 17; do
  dir=/tmp/glc-ms$it; rm -rf $dir; mkdir -p $dir
  env __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_PATH=$dir __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 WAVEKIT_SHADER_PARAMS=ITEMS=${it}u "${WK[@]}" $BIN/wk-demos merge_sort --variant pairs_u32 --backend vulkan --log2 "16..=16" --warmup 0 --warmup-ms 0 --runs 1 2>&1 | grep "^ok\|FAIL"
  tar -C /tmp -czf $OUT/glc-ms$it.tar.gz glc-ms$it
  ls -la $dir | head
done
