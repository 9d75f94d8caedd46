#!/usr/bin/env bash
# Session 67, call E.
# 1. The OneSweep histogram in one wave on CUDA (132 SMs x 3 workgroups,
#    compiled for 3 a multiprocessor) against f8badcb (base.gz, 1024
#    workgroups): radix sort keys and pairs through CUDA, 2^20..2^26, CUB on
#    the same sizes; Nsight Compute of the new histogram at 2^26.
# 2. Through Vulkan, this build with the default (builtin) subgroup
#    lowerings against the shuffle lowerings, which the H100's tune profile
#    chose for every op (docs/tune/2026-11-25-h100-...; installed for the
#    experiment under the H200's name: the H200 has no profile of its own).
# 3. device_cuda with this build's kernels and hosts.
set -u
OUT=$1
P="base=target/nvc/s67/base.gz:radix_sort:keys,pairs:cuda after=after:radix_sort:keys,pairs:cuda"
PLAN="$P" CUB_ONLY=radix_sort LOG2_LO=20 LOG2_HI=26 RUNS=20 WARMUP=5 WARMUP_MS=200 SETTLE_MS=300 STEP_S=60 CUB_S=60 BUDGET_S=160 bash bench/ab-demos.sh "$OUT"
source bench/device-setup.sh
timeout 60 ncu --section SpeedOfLight --section LaunchStats --section Occupancy --kernel-name histogram --launch-count 1 "${WK[@]}" /tmp/wk-ab/wk-demos radix_sort --variant pairs --backend cuda --log2 "26..=26" --warmup 0 --warmup-ms 0 --runs 1 2>&1 | grep -v "loop not unrolled" | grep -v "^==PROF==" > "$OUT/ncu-histogram.log"
grep -E "histogram|Duration|Grid Size|Registers Per|Achieved Occ" "$OUT/ncu-histogram.log"
mkdir -p /tmp/wk-prof && cp target/nvc/s67/nvidia-h200-nvidia-580-159-04.json /tmp/wk-prof/
for e in scan:auto,inclusive_max_u32 compact:u32_half reduce:sum_f32 by_key:reduce_sum_u32,scan_sum_u32 radix_sort:keys,pairs; do
  d=${e%%:*}; flags=()
  for v in ${e#*:}; do IFS=, read -ra vs <<<"$v"; for x in "${vs[@]}"; do flags+=(--variant "$x"); done; done
  for lowering in builtin shuffle; do
    dir=/tmp/wk-noprof; [[ $lowering == shuffle ]] && dir=/tmp/wk-prof
    echo "== $lowering: $d ${e#*:} vulkan" | tee -a "$OUT/vulkan-lowering.log"
    timeout 45 env WAVEKIT_PROFILE_DIR=$dir "${WK[@]}" /tmp/wk-ab/wk-demos "$d" "${flags[@]}" --backend vulkan --log2 "18..=24" --warmup 5 --warmup-ms 200 --settle-ms 300 --runs 20 2>&1 | grep -E "^(ok|FAIL|==)" | tee -a "$OUT/vulkan-lowering.log" | tail -1
  done
done
gunzip -c target/nvc/s67/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 150 "${WK[@]}" /tmp/device_cuda --test-threads 1 2>&1 | tail -30 | tee "$OUT/device-cuda.log" | tail -4
