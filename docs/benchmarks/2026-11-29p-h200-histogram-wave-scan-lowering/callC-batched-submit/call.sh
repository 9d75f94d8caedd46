#!/usr/bin/env bash
# Session 67, call C: the wgpu runner's timed runs submitted together (the
# pack) against f8badcb's (base.gz, one submission a run), through Vulkan,
# 2^16..2^24, as the standard run times them; CUB on the same sizes; then
# the peer wgpu_sort timed both ways.
set -u
OUT=$1
P=""
for e in reduce:sum_f32,sum_u32,max_u32 scan:auto compact:u32_half radix_sort:keys,pairs; do
  d=${e%%:*}; v=${e#*:}
  P="$P base-$d=target/nvc/s67/base.gz:$d:$v:vulkan after-$d=after:$d:$v:vulkan"
done
PLAN="$P" CUB_ONLY=reduce,scan,compact,radix_sort LOG2_LO=16 LOG2_HI=24 RUNS=20 WARMUP=5 WARMUP_MS=200 SETTLE_MS=300 STEP_S=60 CUB_S=60 BUDGET_S=330 bash bench/ab-demos.sh "$OUT"
source bench/device-setup.sh
gunzip -c target/nvc/s67/peers-base.gz > /tmp/wk-peers-base && chmod +x /tmp/wk-peers-base
tar -xzf target/wk-bench.tar.gz -C /tmp ./wk-peers
for p in /tmp/wk-peers-base /tmp/wk-peers /tmp/wk-peers-base /tmp/wk-peers; do
  echo "== peers $p"
  timeout 40 "${WK[@]}" "$p" --log2 16 24 --warmup 5 --warmup-ms 200 --settle-ms 300 --runs 20 2>&1 | tee -a "$OUT/peers.log" | tail -12
done
