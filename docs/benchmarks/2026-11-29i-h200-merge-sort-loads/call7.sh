#!/usr/bin/env bash
# Session 64, call 7: the stop's code (ce3b8c0): ReduceByKey through CUDA
# at its new 20 a thread against 16 (WAVEKIT_SHADER_PARAMS), twice, and
# through Vulkan; MergeSort through CUDA and Vulkan; CUB; device_cuda.
set -u
OUT=$1
P="cu-rbk20=after:by_key:reduce_sum_u32:cuda cu-rbk16=after:by_key:reduce_sum_u32:cuda:ITEMS=16u vk-rbk=after:by_key:reduce_sum_u32:vulkan cu-rbk20b=after:by_key:reduce_sum_u32:cuda cu-rbk16b=after:by_key:reduce_sum_u32:cuda:ITEMS=16u cu-ms=after:merge_sort:pairs_u32:cuda vk-ms=after:merge_sort:pairs_u32:vulkan"
PLAN="$P" CUB_ONLY=by_key,merge_sort LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=40 BUDGET_S=260 bash bench/ab-demos.sh $OUT
source bench/device-setup.sh >/dev/null 2>&1
rm -f /tmp/device_cuda
gunzip -c target/nvc/s64/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 150 "${WK[@]}" /tmp/device_cuda --test-threads 1 > $OUT/device_cuda.log 2>&1; echo "device_cuda exit=$?" >> $OUT/device_cuda.log
echo "== device_cuda" >> $OUT/ab.log
grep -E "^test .*(ok|FAILED)$|test result|exit=" $OUT/device_cuda.log | head -40 >> $OUT/ab.log
