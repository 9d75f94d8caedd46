#!/usr/bin/env bash
# CUDA with every global store volatile (st.volatile.global: STG.E.STRONG.SYS),
# a stand-in for the STG.E.STRONG.SM stores NVIDIA's Vulkan compiler writes,
# against the same binary with weak stores; two rounds.
OUT=$1
source bench/device-setup.sh
BIN=/tmp/wk-vs; mkdir -p $BIN; gunzip -c target/nvc/wk-demos-vs.gz > $BIN/wk; chmod +x $BIN/wk
T=(--log2 20..=26 --warmup 3 --warmup-ms 200 --settle-ms 100 --runs 10)
for round in 1 2; do
for mode in weak strong; do
  E=(); [[ $mode == strong ]] && E=(WK_EXPERIMENT_STRONG_STORES=1)
  for d in "radix_sort --variant keys --variant pairs" "scan --variant auto" "compact --variant u32_half"; do
    echo "== $round $mode $d"; timeout 60 env "${WK[@]}" "${E[@]}" $BIN/wk $d --backend cuda "${T[@]}" 2>&1 | grep -E "^ok|FAIL|rror"
  done
done
done > $OUT/strong.log 2>&1
grep -c "^ok" $OUT/strong.log; grep -c FAIL $OUT/strong.log
