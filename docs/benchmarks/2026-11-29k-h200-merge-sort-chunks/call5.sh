#!/usr/bin/env bash
# Session 65, call 5: the stop's code (the pack's commit) against base.gz
# (2559d1b): the radix sort through CUDA (keys, pairs) and Vulkan (pairs),
# MergeSort pairs through Vulkan and CUDA; CUB; then device_cuda.
set -u
OUT=$1
B=target/nvc/s65/base.gz
P="cu-pairs=after:radix_sort:pairs:cuda cu-pairs-base=$B:radix_sort:pairs:cuda cu-keys=after:radix_sort:keys:cuda cu-keys-base=$B:radix_sort:keys:cuda"
P="$P vk-ms=after:merge_sort:pairs_u32:vulkan vk-ms-base=$B:merge_sort:pairs_u32:vulkan cu-ms=after:merge_sort:pairs_u32:cuda"
P="$P vk-pairs=after:radix_sort:pairs:vulkan vk-keys=after:radix_sort:keys:vulkan"
P="$P cu-pairs2=after:radix_sort:pairs:cuda cu-pairs-base2=$B:radix_sort:pairs:cuda vk-ms2=after:merge_sort:pairs_u32:vulkan"
PLAN="$P" CUB_ONLY=radix_sort,merge_sort LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=35 BUDGET_S=330 bash bench/ab-demos.sh $OUT
source bench/device-setup.sh >/dev/null 2>&1
rm -f /tmp/device_cuda
gunzip -c target/nvc/s65/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 150 "${WK[@]}" /tmp/device_cuda --test-threads 1 > $OUT/device_cuda.log 2>&1; echo "device_cuda exit=$?" >> $OUT/device_cuda.log
echo "== device_cuda" >> $OUT/ab.log
grep -E "^test .*(ok|FAILED)$|test result|exit=" $OUT/device_cuda.log | head -40 >> $OUT/ab.log
