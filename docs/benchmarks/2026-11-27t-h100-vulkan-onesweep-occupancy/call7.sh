set -u
PLAN="$(tr '\n' ' ' < target/nvc/s50/call7.plan)" CUB_ONLY=top_k LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=50 BUDGET_S=200 bash bench/ab-demos.sh $OUT
cd /tmp/wk-ab && env LD_LIBRARY_PATH=/opt/wk/usr/lib/x86_64-linux-gnu WAVEKIT_LIBDEVICE=$OLDPWD/.llvm-debs/libdevice.10.bc XDG_RUNTIME_DIR=/tmp/wavekit-runtime timeout 100 ./wk-device-cuda > $OUT/device-cuda.log 2>&1; echo "device_cuda exit $?" >> $OUT/device-cuda.log
