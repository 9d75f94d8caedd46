set -u
PLAN="$(tr '\n' ' ' < target/nvc/s50/call6.plan)" CUB_ONLY=top_k LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=40 BUDGET_S=330 bash bench/ab-demos.sh $OUT
PLAN="pairs-after=after:radix_sort:pairs:vulkan pairs-base=target/wk-demos-f17.gz:radix_sort:pairs:vulkan pairs-after2=after:radix_sort:pairs:vulkan" LOG2_LO=20 LOG2_HI=22 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=80 bash bench/ab-demos.sh $OUT
cd /tmp/wk-ab && env LD_LIBRARY_PATH=/opt/wk/usr/lib/x86_64-linux-gnu WAVEKIT_LIBDEVICE=$OLDPWD/.llvm-debs/libdevice.10.bc XDG_RUNTIME_DIR=/tmp/wavekit-runtime timeout 120 ./wk-device-cuda > $OUT/device-cuda.log 2>&1; echo "device_cuda exit $?" >> $OUT/device-cuda.log
