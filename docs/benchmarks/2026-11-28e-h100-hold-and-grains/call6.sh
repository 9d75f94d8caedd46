#!/usr/bin/env bash
# Session 53, call 6: the last code (contact_sort.wgsl's shared transposition
# and pair loads) against call 3's numbers: FixedSegmentedSort through CUDA
# and Vulkan, 2^22..2^26, with CUB; ArgReduce's new defaults; device_cuda.
set -u
OUT=$1
PLAN="cs-cu=after:contact_sort:seg32,seg16,seg8:cuda cs-vk=after:contact_sort:seg32,seg16,seg8:vulkan ar-cu=after:arg_reduce:min_f32:cuda ar-vk=after:arg_reduce:min_f32:vulkan" \
  CUB_ONLY=contact_sort,arg_reduce LOG2_LO=22 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=60 CUB_S=60 BUDGET_S=260 bash bench/ab-demos.sh $OUT
cd /tmp/wk-ab && env LD_LIBRARY_PATH=/opt/wk/usr/lib/x86_64-linux-gnu WAVEKIT_LIBDEVICE=$OLDPWD/.llvm-debs/libdevice.10.bc XDG_RUNTIME_DIR=/tmp/wavekit-runtime timeout 100 ./wk-device-cuda > $OUT/device-cuda.log 2>&1; echo "device_cuda rc=$?" >> $OUT/device-cuda.log
tail -4 $OUT/device-cuda.log
