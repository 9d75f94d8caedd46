#!/usr/bin/env bash
# Device call 9 of 2026-11-27p: Nsight Compute on TopK's single-workgroup
# kernels (init, finish_pass) at 2^20, k = 64 and 1024: where their time goes.
OUT=${1:?OUT}
BIN=/tmp/wk-ab
rm -rf $BIN && mkdir -p $BIN && tar -xzf target/wk-bench.tar.gz -C $BIN
source bench/device-setup.sh
S=(--section SpeedOfLight --section WarpStateStats --section InstructionStats --section SourceCounters --section MemoryWorkloadAnalysis)
for v in largest_f32_k64 largest_f32_k1024; do
  echo "== ncu wavekit top_k $v 2^20: init, finish_pass"
  timeout 150 ncu "${S[@]}" --kernel-name regex:"^(init|finish_pass)$" --launch-count 2 \
    "${WK[@]}" $BIN/wk-demos top_k --variant $v --backend cuda --log2 "20..=20" --warmup 0 --warmup-ms 0 --runs 1 2>&1 | grep -v "loop not unrolled" | grep -v "^==PROF=="
done > $OUT/ncu-topk-detail.log 2>&1
wc -l $OUT/ncu-topk-detail.log
