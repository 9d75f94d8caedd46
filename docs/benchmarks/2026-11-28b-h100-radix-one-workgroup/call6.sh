#!/usr/bin/env bash
# Session 52, call 6: RadixSort's one-workgroup path (at most 1280 keys) against
# the multi-tile sort (main + pass timestamps, 638f062), Vulkan and CUDA, 2^10..2^12;
# CUB; then tests/device_cuda.rs.
set -u
OUT=$1
PLAN="vk-main=target/wk-demos-main.gz:radix_sort:keys,pairs:vulkan vk-tile=after:radix_sort:keys,pairs:vulkan cu-main=target/wk-demos-main.gz:radix_sort:keys,pairs:cuda cu-tile=after:radix_sort:keys,pairs:cuda vk-main2=target/wk-demos-main.gz:radix_sort:keys,pairs:vulkan vk-tile2=after:radix_sort:keys,pairs:vulkan" \
  CUB_ONLY=radix_sort LOG2_LO=10 LOG2_HI=12 RUNS=30 WARMUP=3 STEP_S=40 BUDGET_S=240 bash bench/ab-demos.sh $OUT
cd /tmp/wk-ab && env LD_LIBRARY_PATH=/opt/wk/usr/lib/x86_64-linux-gnu WAVEKIT_LIBDEVICE=$OLDPWD/.llvm-debs/libdevice.10.bc XDG_RUNTIME_DIR=/tmp/wavekit-runtime timeout 200 ./wk-device-cuda > $OUT/device-cuda.log 2>&1; echo "device_cuda exit $?" >> $OUT/device-cuda.log
tail -5 $OUT/device-cuda.log
