#!/usr/bin/env bash
# Here, before the device run: builds and packs what bench/device-run.sh needs
# from this machine into target/wk-bench.tar.gz (gzip: the device machine has
# no xz for certain), then prints how much will travel with the call.
#
#   bash bench/pack.sh    # PREBUILT=0 skips the CUDA C++ fallbacks (PREBUILT=topk: cub_topk alone), MICRO=0 wk-micro, CLI=0 wavekit, PEERS=0 wk-peers
#                         # CUDA_WHEEL=DIR/nvidia/cu13: the nvcc wheel where python3 does not import it
#
# All the binaries, .llvm-debs and .gl come to over the 64 MiB a call may
# carry: bench/device-run.sh wants CLI=0 PROBE=0, bench/focus-run.sh MICRO=0 PROBE=0
# (or NATIVE=0 without .llvm-debs for Vulkan-only steps).
#
# The tarball holds the stripped release binaries wk-demos (wavekit-demos),
# wk-micro (the demos crate's `micro`), wk-peers (bench/peers) and wavekit
# (the CLI, for the conformance suite), and the commit they were built
# from: about 8 MB instead of 26, which keeps the working tree, .llvm-debs
# and .gl under the 64 MiB a call may carry.
# Where NVIDIA's nvcc wheel is installed here (scripts/setup), it also holds
# warp_ops and cub_ref built for sm_90 with CUB from the nvidia-cuda-cccl
# wheel: the device script builds both with its own nvcc and uses these only
# if that build fails. And cub_topk (bench/ref/cub_topk.cu, CUB's
# DeviceTopK), built against CCCL 13.2's headers: the device machine's CUDA
# 13.0 (CCCL 3.0) cannot build it, so the device scripts run this one.
# With CCCL_MAIN (a CCCL main checkout's headers, its commit in
# CCCL_MAIN/COMMIT) also cub_segscan (bench/ref/cub_segscan.cu, CUB's
# DeviceSegmentedScan, in no CCCL release yet).
# CARGO_TARGET_DIR is honoured; the tarball is target/wk-bench.tar.gz
# either way.
set -euo pipefail
cd "$(dirname "$0")/.."

# NATIVE=0: the demos and the CLI without the native back ends, so the
# device run needs no LLVM libraries (no .llvm-debs to carry): Vulkan only.
features=()
[[ ${NATIVE:-1} == 0 ]] && features=(--no-default-features)
release=${CARGO_TARGET_DIR:-target}/release
cargo build --release --locked -p wavekit-demos --bins "${features[@]}"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
strip -o "$stage/wk-demos" "$release/wavekit-demos"
# The demos crate's src/bin/micro.rs: `micro`, or `wavekit-micro` once
# demos/Cargo.toml names it so. MICRO=0 leaves it out (bench/focus-run.sh
# does not use it, and the call then carries 4 MiB less).
if [[ ${MICRO:-1} == 1 ]]; then
    micro=$release/wavekit-micro
    [[ -f $micro ]] || micro=$release/micro
    strip -o "$stage/wk-micro" "$micro"
fi
# The CLI, for the conformance suite on the device (`wavekit check`);
# CLI=0 leaves it out (bench/device-run.sh does not use it).
if [[ ${CLI:-1} == 1 ]]; then
    cargo build --release --locked -p wavekit-cli --bin wavekit "${features[@]}"
    strip -o "$stage/wavekit" "$release/wavekit"
fi
# The peers (bench/peers, a workspace of its own): wgpu_sort ported to wgpu
# 30, for bench/device-run.sh's `peers` part; about 2 MB packed. PEERS=0
# leaves it out.
if [[ ${PEERS:-1} == 1 ]]; then
    cargo build --release --locked --manifest-path bench/peers/Cargo.toml
    strip -o "$stage/wk-peers" "${CARGO_TARGET_DIR:-bench/peers/target}/release/wk-peers"
fi
# The Vulkan allocation probe (issue 19), for bench/focus-run.sh's probe step.
# PROBE=0 leaves it out (4 MiB less, for calls that carry .llvm-debs).
if [[ ${PROBE:-1} == 1 && -f $release/wavekit-alloc-probe ]]; then
    strip -o "$stage/wk-alloc-probe" "$release/wavekit-alloc-probe"
fi
# TESTS=1: the wavekit::device CUDA tests (tests/device_cuda.rs) and the
# CUDA example, for bench/device-run.sh's `tests` part.
if [[ ${TESTS:-0} == 1 ]]; then
    test_bin=$(cargo test --release --locked --features native --test device_cuda --no-run 2>&1 |
        grep -o '[^ (]*/release/deps/device_cuda-[0-9a-f]*' | tail -n 1)
    strip -o "$stage/wk-device-cuda" "$test_bin"
    # And the CUDA example (examples/device_cuda.rs), which the part runs too.
    cargo build --release --locked --features native --example device_cuda
    strip -o "$stage/wk-example-device-cuda" "$release/examples/device_cuda"
fi
# The device machine gets no .git: the commit the binaries were built from.
git describe --always --dirty >"$stage/commit.txt"

if [[ ${PREBUILT:-1} != 0 ]]; then
    # CUDA_WHEEL: the wheel's cu13 folder, where it is not on python3's path.
    cu=${CUDA_WHEEL:-$(python3 -c 'import nvidia, os; print(os.path.join(list(nvidia.__path__)[0], "cu13"))' 2>/dev/null || true)}
    if [[ -n $cu && -x $cu/bin/nvcc ]]; then
        # CCCL 3.0 (CUDA 13.0's) headers, and CCCL 13.2's for DeviceTopK,
        # once, into the ignored target/.
        cccl=target/cccl-13.0
        [[ -d $cccl/nvidia ]] ||
            python3 -m pip install --quiet --no-deps --target "$cccl" nvidia-cuda-cccl==13.0.85
        cccl_topk=target/cccl-13.2
        [[ -d $cccl_topk/nvidia ]] ||
            python3 -m pip install --quiet --no-deps --target "$cccl_topk" nvidia-cuda-cccl==13.2.86
        export PATH=$cu/bin:$cu/nvvm/bin:$PATH
        flags=(-O3 -std=c++17 -arch=sm_90 -L"$cu/lib")
        if [[ ${PREBUILT:-1} != topk ]]; then
            nvcc "${flags[@]}" -I"$cccl/nvidia/cu13/include/cccl" -o "$stage/warp_ops" bench/micro/warp_ops.cu &
            nvcc "${flags[@]}" -I"$cccl/nvidia/cu13/include/cccl" -o "$stage/cub_ref" bench/ref/cub_ref.cu &
            wait
        fi
        # Alone: it must build (the device machine cannot), and `wait`
        # above does not report the background builds' failures.
        nvcc "${flags[@]}" -I"$cccl_topk/nvidia/cu13/include/cccl" -o "$stage/cub_topk" bench/ref/cub_topk.cu
        # CUB's DeviceSegmentedScan is in CCCL's main branch only (no
        # release or wheel has it): with CCCL_MAIN naming a checkout of it
        # (the `fetch` tool's mirror: `git archive HEAD cub/cub
        # libcudacxx/include thrust/thrust | tar -x -C DIR`), cub_segscan.
        if [[ -n ${CCCL_MAIN:-} ]]; then
            commit=$(cat "$CCCL_MAIN/COMMIT" 2>/dev/null || echo main)
            nvcc "${flags[@]}" -DCCCL_COMMIT="\"$commit\"" -I"$CCCL_MAIN/cub" -I"$CCCL_MAIN/libcudacxx/include" \
                -I"$CCCL_MAIN/thrust" -o "$stage/cub_segscan" bench/ref/cub_segscan.cu
        fi
    else
        echo "no nvcc wheel here: packing without the CUDA C++ fallbacks"
    fi
fi

mkdir -p target
tar -C "$stage" -czf target/wk-bench.tar.gz .
tar -tzvf target/wk-bench.tar.gz

# What a device call carries: tracked and untracked-not-ignored files, plus
# the carried paths.
tree=$( (git ls-files -z; git ls-files -z --others --exclude-standard) | xargs -0 du -cb 2>/dev/null | awk '/total$/ {s += $1} END {print s}')
# (Only those here: a worktree without .llvm-debs or .gl counts the tarball.)
present=()
for path in .llvm-debs .gl; do [[ -e $path ]] && present+=("$path"); done
carried=$(du -cb "${present[@]}" target/wk-bench.tar.gz | tail -n 1 | cut -f1)
echo "travels: $(((tree + carried) / 1048576)) MiB of 64 (working tree $((tree / 1048576)) MiB, carried $((carried / 1048576)) MiB)"
# shellcheck disable=SC2016 # $OUT is for the device machine, not here
echo 'device call (after CLI=0 PROBE=0): run(command="bash bench/device-run.sh $OUT", carry=[".llvm-debs", ".gl", "target/wk-bench.tar.gz"], timeout_s=600)'
