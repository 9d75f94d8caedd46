#!/usr/bin/env bash
# Session 63, call 7: the stop's code as committed (706dfaf) against the
# base build (bf2e63e's pack; no compaction or by-key kernel changed after
# it until this stop), each family the stop touched, CUDA and Vulkan:
# ReduceByKey, PartitionIf, Unique, the selection (compact u32_half,
# SelectIf through the library); CUB; device_cuda.
set -u
OUT=$1
gunzip -c target/nvc/s63/base.gz > /tmp/base-demos && chmod +x /tmp/base-demos
B=/tmp/base-demos
P=""
for e in by_key:reduce_sum_u32 partition:half_u32 unique:runs_u32 compact:u32_half; do
  d=${e%%:*}; v=${e#*:}
  P="$P cu-$d=after:$d:$v:cuda cu-$d-base=$B:$d:$v:cuda vk-$d=after:$d:$v:vulkan vk-$d-base=$B:$d:$v:vulkan"
done
PLAN="$P" CUB_ONLY=by_key,partition,unique,compact LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=330 bash bench/ab-demos.sh $OUT
source bench/device-setup.sh >/dev/null 2>&1
rm -f /tmp/device_cuda
gunzip -c target/nvc/s63/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 150 "${WK[@]}" /tmp/device_cuda --test-threads 1 > $OUT/device_cuda.log 2>&1; echo "device_cuda exit=$?" >> $OUT/device_cuda.log
echo "== device_cuda" >> $OUT/ab.log
grep -E "^test .*(ok|FAILED)$|test result|exit=" $OUT/device_cuda.log | head -40 >> $OUT/ab.log
