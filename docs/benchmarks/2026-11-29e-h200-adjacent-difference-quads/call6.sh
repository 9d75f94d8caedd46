#!/usr/bin/env bash
# Session 62, call 6: AdjacentDifference's copy by vec4 rows (QUADS, the
# new default) against its word rows (QUADS=false, the code before, in the
# same binary), at 8 (the default), 12 and 16 a thread, through CUDA and
# Vulkan, two rounds of the default and the words, with CUB; then
# device_cuda (with the right-side copy added).
set -u
OUT=$1
V=left_u32
PLAN="cu=after:adjacent_difference:$V:cuda cu-w=after:adjacent_difference:$V:cuda:QUADS=false cu-16=after:adjacent_difference:$V:cuda:ITEMS=16u cu-12=after:adjacent_difference:$V:cuda:ITEMS=12u vk=after:adjacent_difference:$V:vulkan vk-w=after:adjacent_difference:$V:vulkan:QUADS=false vk-16=after:adjacent_difference:$V:vulkan:ITEMS=16u vk-12=after:adjacent_difference:$V:vulkan:ITEMS=12u cu2=after:adjacent_difference:$V:cuda cu-w2=after:adjacent_difference:$V:cuda:QUADS=false vk2=after:adjacent_difference:$V:vulkan vk-w2=after:adjacent_difference:$V:vulkan:QUADS=false" \
  CUB_ONLY=adjacent_difference LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=220 bash bench/ab-demos.sh $OUT
source bench/device-setup.sh >/dev/null 2>&1
rm -f /tmp/device_cuda
gunzip -c target/nvc/s62/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 150 "${WK[@]}" /tmp/device_cuda --test-threads 1 > $OUT/device_cuda.log 2>&1; echo "device_cuda exit=$?" >> $OUT/device_cuda.log
echo "== device_cuda" >> $OUT/ab.log
grep -E "^test .*(ok|FAILED)$|test result|exit=" $OUT/device_cuda.log | head -40 >> $OUT/ab.log
