#!/usr/bin/env bash
# Session 68, call 7: tests/device_cuda.rs at 4d045a5 + the test of workgroup
# memory past the device's limit (100 KiB dynamic runs, 300 KiB refused).
OUT=${1:?OUT}
source bench/device-setup.sh
gunzip -c target/nvc/s68b/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 150 "${WK[@]}" /tmp/device_cuda --test-threads 1 > "$OUT/device-cuda.log" 2>&1
echo "device_cuda rc=$?"; grep -E "^test |test result|FAILED|panicked" "$OUT/device-cuda.log" | tail -30
