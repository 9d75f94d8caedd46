#!/usr/bin/env bash
# Session 56, call 2: Nsight Compute of the OneSweep kernels, keys at 2^24
# through CUDA, base (6c190d8) against the full-tile change (call 1 found
# it 47 % slower through CUDA, faster through Vulkan).
set -u
OUT=$1
BIN=/tmp/wk-ab
rm -rf $BIN && mkdir -p $BIN && tar -xzf target/wk-bench.tar.gz -C $BIN
gunzip -c target/wk-demos-6c1.gz > $BIN/wk-demos-6c1 && chmod +x $BIN/wk-demos-6c1
source bench/device-setup.sh
S=(--section SpeedOfLight --section LaunchStats --section Occupancy --section InstructionStats --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --metrics smsp__thread_inst_executed_per_inst_executed.ratio,smsp__sass_inst_executed_op_shared_atom.sum,smsp__sass_inst_executed_op_global_st.sum,smsp__sass_inst_executed_op_global_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum)
for b in wk-demos wk-demos-6c1; do
  timeout 120 ncu "${S[@]}" --launch-count 7 "${WK[@]}" $BIN/$b radix_sort --variant keys --backend cuda --log2 "24..=24" --warmup 0 --warmup-ms 0 --runs 1 2>&1 | grep -v "loop not unrolled" | grep -v "^==PROF==" > $OUT/ncu-$b.log
  echo "$b rc=$?"
done
