#!/bin/bash
# Issue 37 on the device machine: the CUDA thread, memory, fault and
# time-out tests of tests/device_cuda.rs, and `wavekit run --timeout` and
# `--unclamped` through Vulkan and CUDA on a kernel that never ends
# (tests/data/never_ends.wgsl) and one that reads 15 GiB past its buffer
# (tests/data/reads_past_the_end.wgsl; past_the_end_index.bin holds 0xf0000000). Here, first:
#
#   cargo test --release --features native --test device_cuda --no-run
#   cargo build --release -p wavekit-cli --bin wavekit
#   mkdir -p target/dc && strip -o target/dc/device_cuda target/release/deps/device_cuda-HASH \
#     && strip -o target/dc/wavekit target/release/wavekit && gzip -9 -f target/dc/*[!z]
#
# then on the device (carry .llvm-debs, .gl and target/dc; TESTS="all" runs
# every test of the binary, or name tests):
#
#   TESTS=all bash bench/faults/run.sh
cd "$(dirname "$0")/../.."
mkdir -p /opt/wk && for f in .llvm-debs/*.deb; do dpkg -x "$f" /opt/wk; done
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export LD_LIBRARY_PATH=/opt/wk/usr/lib/x86_64-linux-gnu WAVEKIT_LIBDEVICE=$PWD/.llvm-debs/libdevice.10.bc
D=target/dc
S=tests/data
for f in "$D"/*.gz; do gunzip -kf "$f"; done
chmod +x "$D/device_cuda" "$D/wavekit"
nvidia-smi -L
for t in ${TESTS:-}; do
    [[ $t == all ]] && t=
    (time timeout 300 "$D/device_cuda" ${t:+--exact} $t --test-threads 1 --nocapture) >"$OUT/${t:-all}.log" 2>&1
    echo "${t:-all} rc=$?"
    grep -E "test result|panicked|FAULT|AFTER|REOPEN|TIMEOUT|DROPPED|buffers of|1 TiB|20 GiB|^real" -A3 "$OUT/${t:-all}.log" | head -60
done
for b in vulkan cuda; do
    echo "== never ends, $b"
    (time timeout 120 "$D/wavekit" run $S/never_ends.wgsl --entry never_ends --backend $b --timeout 2 --bind 0:0=out:u32:64; echo "rc=$?") 2>&1 | tail -6
    echo "== reads out of bounds, $b, --unclamped"
    (time timeout 120 "$D/wavekit" run $S/reads_past_the_end.wgsl --entry reads_past_the_end --backend $b --unclamped --bind 0:0=$S/past_the_end_index.bin --bind 0:1=out:u32:32 --out "$OUT/oob-$b.npy") 2>&1 | tail -5
    echo "== reads out of bounds, $b, checked"
    (time timeout 120 "$D/wavekit" run $S/reads_past_the_end.wgsl --entry reads_past_the_end --backend $b --bind 0:0=$S/past_the_end_index.bin --bind 0:1=out:u32:32 --out "$OUT/oob-checked-$b.npy") 2>&1 | tail -5
done
