#!/usr/bin/env bash
set -uo pipefail
OUT=$1
source bench/device-setup.sh
BIN=/tmp/wk-ab; [[ -x $BIN/wk-demos ]] || { mkdir -p $BIN; tar -xzf target/wk-bench.tar.gz -C $BIN; }
T=(--log2 26..=26 --warmup 20 --warmup-ms 1500 --settle-ms 100 --runs 60)
for b in vulkan cuda vulkan; do
  nvidia-smi --query-gpu=timestamp,pstate,clocks.sm,clocks.mem,power.draw,clocks_throttle_reasons.active --format=csv,noheader -lms 50 > /tmp/smi-$b.csv &
  P=$!
  sleep 0.3
  echo "== $b keys"; timeout 60 env "${WK[@]}" $BIN/wk-demos radix_sort --variant keys --backend $b "${T[@]}" 2>&1 | grep -E "^ok|FAIL|rror"
  kill $P; wait $P 2>/dev/null
  echo "-- clocks during $b (samples: $(wc -l < /tmp/smi-$b.csv))"; sort /tmp/smi-$b.csv | awk -F', ' '{print $2, $3, $4}' | sort | uniq -c | sort -rn | head -8
done
