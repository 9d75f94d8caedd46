set -u
PLAN="new-vk=after:radix_sort:keys,pairs:vulkan new-cuda=after:radix_sort:keys,pairs:cuda" CUB_ONLY=radix_sort LOG2_LO=27 LOG2_HI=28 RUNS=10 WARMUP=3 STEP_S=100 BUDGET_S=260 bash bench/ab-demos.sh $OUT
cd /tmp/wk-ab && env LD_LIBRARY_PATH=/opt/wk/usr/lib/x86_64-linux-gnu WAVEKIT_LIBDEVICE=$OLDPWD/.llvm-debs/libdevice.10.bc XDG_RUNTIME_DIR=/tmp/wavekit-runtime timeout 120 ./wk-device-cuda > $OUT/device-cuda.log 2>&1; echo "device_cuda exit $?" >> $OUT/device-cuda.log
