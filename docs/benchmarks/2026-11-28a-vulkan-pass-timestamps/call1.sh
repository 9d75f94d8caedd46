#!/usr/bin/env bash
# Session 52, call 1: (A) the library's small sizes 2^10..2^20 through Vulkan and
# CUDA with CUB; (B) by-key and TopK at 2^20..2^26 with shape variants through
# Vulkan, CUDA and CUB; (C) NVIDIA's shader cache of those kernels (no timing).
set -u
OUT=$1
PLAN="vk-reduce=after:reduce:sum_f32:vulkan cu-reduce=after:reduce:sum_f32:cuda vk-scan=after:scan:auto:vulkan cu-scan=after:scan:auto:cuda vk-compact=after:compact:u32_half:vulkan cu-compact=after:compact:u32_half:cuda vk-sort=after:radix_sort:keys,pairs:vulkan cu-sort=after:radix_sort:keys,pairs:cuda" \
  CUB_ONLY=reduce,scan,compact,radix_sort LOG2_LO=10 LOG2_HI=20 RUNS=20 WARMUP=3 STEP_S=40 BUDGET_S=220 bash bench/ab-demos.sh $OUT/a
PLAN="vk-bk=after:by_key:reduce_sum_u32,scan_sum_u32:vulkan cu-bk=after:by_key:reduce_sum_u32,scan_sum_u32:cuda vk-rbk-stash=after:by_key:reduce_sum_u32:vulkan:STASHED_ENDS=true vk-bk-i8=after:by_key:reduce_sum_u32,scan_sum_u32:vulkan:ITEMS=8u vk-bk-i16=after:by_key:reduce_sum_u32,scan_sum_u32:vulkan:ITEMS=16u vk-topk=after:top_k:largest_f32_k64,largest_f32_k1024:vulkan cu-topk=after:top_k:largest_f32_k64,largest_f32_k1024:cuda" \
  CUB_ONLY=by_key,top_k LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=45 BUDGET_S=270 bash bench/ab-demos.sh $OUT/b
source bench/device-setup.sh >/dev/null 2>&1
BIN=/tmp/wk-ab
mkdir -p /tmp/glc
cap() { local name=$1; shift; local dir=/tmp/glc/$name; rm -rf $dir; mkdir -p $dir
  env __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_PATH=$dir __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 "$@" >/tmp/glc/$name.log 2>&1; echo "== cap $name rc=$?"; }
D=(--backend vulkan --log2 16..=16 --warmup 1 --runs 1)
cap rbk "${WK[@]}" $BIN/wk-demos by_key --variant reduce_sum_u32 "${D[@]}"
cap sbk "${WK[@]}" $BIN/wk-demos by_key --variant scan_sum_u32 "${D[@]}"
cap rbk-stash "${WK[@]}" WAVEKIT_SHADER_PARAMS=STASHED_ENDS=true $BIN/wk-demos by_key --variant reduce_sum_u32 "${D[@]}"
cap topk "${WK[@]}" $BIN/wk-demos top_k --variant largest_f32_k64 "${D[@]}"
cap part "${WK[@]}" $BIN/wk-demos partition --variant half_u32 "${D[@]}"
cap reduce "${WK[@]}" $BIN/wk-demos reduce --variant sum_f32 "${D[@]}"
cap scan "${WK[@]}" $BIN/wk-demos scan --variant auto "${D[@]}"
tar -C /tmp -czf $OUT/glc.tar.gz glc
ls -la $OUT $OUT/a $OUT/b
