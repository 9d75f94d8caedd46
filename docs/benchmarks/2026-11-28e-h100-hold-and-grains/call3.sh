#!/usr/bin/env bash
# Session 53, call 3: FixedSegmentedSort in grains with the host's
# straight-line network and row loads through workgroup memory (after),
# against 83c5bfd (base), CUDA and Vulkan, 2^20..2^26, at other ITEMS and
# GRAIN; SegmentedReduce in tiles of 1024 against base; CUB; device_cuda.
set -u
OUT=$1
C=contact_sort:seg32,seg16,seg8
P=""
for be in cuda vulkan; do
  P="$P base-$be=target/wk-demos-base.gz:$C:$be after-$be=after:$C:$be i1-$be=after:$C:$be:ITEMS=1u g2-$be=after:$C:$be:GRAIN=2u g8-$be=after:$C:$be:GRAIN=8u"
done
PLAN="$P" CUB_ONLY=contact_sort LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 CUB_S=60 BUDGET_S=360 bash bench/ab-demos.sh $OUT/a
B=by_key:segmented_sum_u32
PLAN="base-sr-cu=target/wk-demos-base.gz:$B:cuda after-sr-cu=after:$B:cuda base-sr-vk=target/wk-demos-base.gz:$B:vulkan after-sr-vk=after:$B:vulkan" \
  CUB_ONLY=by_key LOG2_LO=20 LOG2_HI=24 RUNS=10 WARMUP=3 STEP_S=20 CUB_S=40 BUDGET_S=120 bash bench/ab-demos.sh $OUT/b
cd /tmp/wk-ab && env LD_LIBRARY_PATH=/opt/wk/usr/lib/x86_64-linux-gnu WAVEKIT_LIBDEVICE=$OLDPWD/.llvm-debs/libdevice.10.bc XDG_RUNTIME_DIR=/tmp/wavekit-runtime timeout 100 ./wk-device-cuda > $OUT/device-cuda.log 2>&1; echo "device_cuda rc=$?" >> $OUT/device-cuda.log
tail -5 $OUT/device-cuda.log
