#!/usr/bin/env bash
# Session 69, call A: Reduce through wgpu in one dispatch (ba6f06f, the pack)
# against the two dispatches of 97b86f5 (base.gz; Reduce unchanged from it to
# 5c62576), Vulkan, 2^10-2^26, two rounds alternating, with CUB's
# DeviceReduce; then NVIDIA's shader disk cache of the library's Vulkan
# radix sort (keys, pairs) and reduce at 2^16, decoded off the machine.
set -u
OUT=$1
B=target/nvc/s69/base.gz
V=sum_f32,min_f32,max_f32,sum_u32
PLAN="vk=after:reduce:$V:vulkan vk-base=$B:reduce:$V:vulkan vk2=after:reduce:$V:vulkan vk-base2=$B:reduce:$V:vulkan" \
  CUB_ONLY=reduce LOG2_LO=10 LOG2_HI=26 RUNS=20 WARMUP=5 STEP_S=40 CUB_S=40 BUDGET_S=170 bash bench/ab-demos.sh $OUT
BIN=/tmp/wk-ab
source bench/device-setup.sh
cap() { local name=$1; shift; local dir=/tmp/glc/$name; rm -rf $dir; mkdir -p $dir
  timeout 60 env __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_PATH=$dir __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 "$@" >/tmp/glc/$name.log 2>&1; echo "== cap $name rc=$?"; }
D=(--log2 16..=16 --warmup 1 --runs 1)
cap keys "${WK[@]}" $BIN/wk-demos radix_sort --variant keys --backend vulkan "${D[@]}"
cap pairs "${WK[@]}" $BIN/wk-demos radix_sort --variant pairs --backend vulkan "${D[@]}"
cap reduce "${WK[@]}" $BIN/wk-demos reduce --variant sum_f32 --backend vulkan "${D[@]}"
tar -C /tmp -czf $OUT/glc.tar.gz glc
grep -c FAIL $OUT/ab.log
ls -la $OUT
