#!/usr/bin/env bash
# Session 56, call 6: the pairs through Vulkan at 2^20-2^22 after the keys
# to 2^26 in one process (call 5: 0.365 ms against 0.089 alone): with the
# demo's 200 ms warm-up and with 2000 ms, nvidia-smi's clocks sampled
# alongside.
set -u
OUT=$1
BIN=/tmp/wk-ab
rm -rf $BIN && mkdir -p $BIN && tar -xzf target/wk-bench.tar.gz -C $BIN
source bench/device-setup.sh
nvidia-smi --query-gpu=timestamp,pstate,clocks.sm,clocks.mem,power.draw --format=csv -lms 50 > $OUT/clocks.csv &
SMI=$!
run() {
  local label=$1 wms=$2; shift 2
  echo "== $label: warm-up ${wms} ms, $* ($(date -u +%T.%N))" >> $OUT/ramp.log
  timeout 90 "${WK[@]}" $BIN/wk-demos radix_sort "$@" --backend vulkan --warmup 3 --warmup-ms $wms --settle-ms 100 --runs 10 >> $OUT/ramp.log 2>&1 || echo "== exit $?" >> $OUT/ramp.log
  echo "== end $(date -u +%T.%N)" >> $OUT/ramp.log
}
run keys-pairs-26 200 --variant keys --variant pairs --log2 "20..=26"
run keys-pairs-26-w2000 2000 --variant keys --variant pairs --log2 "20..=26"
run keys-pairs-26-again 200 --variant keys --variant pairs --log2 "20..=26"
kill $SMI
gzip $OUT/clocks.csv
grep -v '^{' $OUT/ramp.log | grep "==\|ok"
