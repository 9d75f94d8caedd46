#!/usr/bin/env bash
# Session 68, call 6: the conformance suite through CUDA and Vulkan at
# 97b86f5 (the native lowering's workgroup variables rewritten: dynamic
# shared memory past 48 KiB).
OUT=${1:?OUT}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
STEPS=conformance bash bench/focus-run.sh "$OUT" > "$OUT/focus.log" 2>&1
grep -E "instance checks|adapter check|FAIL" "$OUT/focus.log"
gzip -f "$OUT"/conformance-*.json
