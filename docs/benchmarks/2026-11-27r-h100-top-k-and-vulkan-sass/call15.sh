#!/usr/bin/env bash
OUT=$1
PLAN="$(tr '\n' ' ' < target/nvc/call15.plan)" CUB_ONLY=segmented_sort LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=45 BUDGET_S=360 bash bench/ab-demos.sh $OUT >/dev/null 2>&1
cd /tmp/wk-ab && env LD_LIBRARY_PATH=/opt/wk/usr/lib/x86_64-linux-gnu WAVEKIT_LIBDEVICE=$OLDPWD/.llvm-debs/libdevice.10.bc XDG_RUNTIME_DIR=/tmp/wavekit-runtime timeout 120 ./wk-device-cuda > $OUT/device-cuda.log 2>&1; echo "device_cuda rc=$?"; grep -E "test result|FAILED|panicked" $OUT/device-cuda.log | head
