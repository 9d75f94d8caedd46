#!/usr/bin/env bash
# Session 66, call 1: the conformance suite through CUDA and Vulkan and the
# wavekit::device CUDA tests, with this stop's shared template environment.
OUT=${1:?OUT}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
STEPS=conformance bash bench/focus-run.sh "$OUT" > "$OUT/focus.log" 2>&1
grep -E "instance checks|adapter check|FAIL" "$OUT/focus.log"
source bench/device-setup.sh
gunzip -c target/nvc/s66/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 200 "${WK[@]}" /tmp/device_cuda --test-threads 1 > "$OUT/device-cuda.log" 2>&1
echo "device_cuda rc=$?"; grep -E "test result|FAILED|panicked" "$OUT/device-cuda.log"
gzip -f "$OUT"/conformance-*.json
