#!/usr/bin/env bash
# Session 56, call 5: why the pairs through Vulkan at 2^20-2^21 are slow in
# some runs (0.25-0.45 ms against 0.095): the pairs alone, after the keys,
# after the keys to 2^26, and the JSON (settled, batches) of each.
set -u
OUT=$1
BIN=/tmp/wk-ab
rm -rf $BIN && mkdir -p $BIN && tar -xzf target/wk-bench.tar.gz -C $BIN
source bench/device-setup.sh
run() {
  local label=$1; shift
  echo "== $label: $*" >> $OUT/small.log
  timeout 60 "${WK[@]}" $BIN/wk-demos radix_sort "$@" --backend vulkan --warmup 3 --warmup-ms 200 --settle-ms 100 --runs 10 >> $OUT/small.log 2>&1 || echo "== exit $?" >> $OUT/small.log
}
run pairs-alone --variant pairs --log2 "20..=22"
run keys-pairs --variant keys --variant pairs --log2 "20..=22"
run keys-pairs-26 --variant keys --variant pairs --log2 "20..=26"
run pairs-alone2 --variant pairs --log2 "20..=22"
run pairs-keys --variant pairs --variant keys --log2 "20..=22"
run pairs-26 --variant pairs --log2 "20..=26"
run pairs-alone3 --variant pairs --log2 "20..=21"
grep -v '^{' $OUT/small.log | grep "==\|ok"
