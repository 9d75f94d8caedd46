#!/usr/bin/env bash
# TopK's kernels as NVIDIA's Vulkan driver compiles them (shader disk cache).
OUT=$1
source bench/device-setup.sh
BIN=/tmp/wk-ab; rm -rf $BIN; mkdir -p $BIN; tar -xzf target/wk-bench.tar.gz -C $BIN
dir=/tmp/glc-topk; rm -rf $dir; mkdir -p $dir
env __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_PATH=$dir __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 "${WK[@]}" $BIN/wk-demos top_k --variant largest_f32_k64_unordered --backend vulkan --log2 16..=16 --runs 1 --warmup 1 2>&1 | tail -1
tar -C /tmp -czf $OUT/glc-topk.tar.gz glc-topk
