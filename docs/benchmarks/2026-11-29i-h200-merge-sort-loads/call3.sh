#!/usr/bin/env bash
# Session 64, call 3: MergeSort as committed (0241207: loads first through
# wgpu only, 256 x 5 through wgpu) against the base build (706dfaf's pack),
# CUDA and Vulkan, with CUB; device_cuda; and the NVIDIA Vulkan driver's
# code of the radix sort (pairs), Unique, ReduceByKey and PartitionIf
# kernels as the library builds them, for reading afterwards.
set -u
OUT=$1
source bench/device-setup.sh >/dev/null 2>&1
BIN=/tmp/wk-ab; mkdir -p $BIN; tar -xzf target/wk-bench.tar.gz -C $BIN
mkdir -p /tmp/glc
for e in radix_sort:pairs unique:runs_u32 by_key:reduce_sum_u32 partition:half_u32 merge_sort:pairs_u32; do
  d=/tmp/glc/${e%%:*}; mkdir -p $d
  env __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_PATH=$d __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 \
    "${WK[@]}" $BIN/wk-demos ${e%%:*} --variant ${e#*:} --backend vulkan \
    --log2 16..=16 --warmup 1 --runs 1 > $d.log 2>&1; echo "== cap $e rc=$?"
done
tar -C /tmp -czf $OUT/glc.tar.gz glc
B=target/nvc/s64/base.gz
P="vk=after:merge_sort:pairs_u32:vulkan vk-base=$B:merge_sort:pairs_u32:vulkan cu=after:merge_sort:pairs_u32:cuda cu-base=$B:merge_sort:pairs_u32:cuda vk2=after:merge_sort:pairs_u32:vulkan"
PLAN="$P" CUB_ONLY=merge_sort LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=45 BUDGET_S=260 bash bench/ab-demos.sh $OUT
rm -f /tmp/device_cuda
gunzip -c target/nvc/s64/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 150 "${WK[@]}" /tmp/device_cuda --test-threads 1 > $OUT/device_cuda.log 2>&1; echo "device_cuda exit=$?" >> $OUT/device_cuda.log
echo "== device_cuda" >> $OUT/ab.log
grep -E "^test .*(ok|FAILED)$|test result|exit=" $OUT/device_cuda.log | head -40 >> $OUT/ab.log
