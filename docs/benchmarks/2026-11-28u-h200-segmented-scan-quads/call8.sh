#!/usr/bin/env bash
# Session 60, call 8: a sector audit of every demo's kernels through CUDA
# at 2^22 (the release demos of 5d0c54c's code): Nsight Compute's share of
# each 32-byte sector's bytes that a global load or store uses
# (smsp__sass_average_data_bytes_per_sector_mem_global_op_{ld,st}.pct),
# with each kernel's duration, to find the kernels that waste sectors as
# the segmented and operator scans did.
set -u
OUT=$1
BIN=/tmp/wk-ab
rm -rf $BIN && mkdir -p $BIN && tar -xzf target/wk-bench.tar.gz -C $BIN
source bench/device-setup.sh >/dev/null 2>&1
M=smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct,smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,gpu__time_duration.sum
for d in reduce scan compact histogram radix_sort contact_sort segmented_sort by_key merge_sort histogram_range top_k arg_reduce transform_reduce adjacent_difference binary_search partition unique; do
  timeout 60 ncu --csv --page raw --metrics $M --launch-count 80 "${WK[@]}" $BIN/wk-demos $d --backend cuda --log2 22 --warmup 0 --warmup-ms 0 --settle-ms 0 --runs 1 > /tmp/ncu-$d.csv 2> /tmp/ncu-$d.err
  echo "$d rc=$? $(grep -c '^"' /tmp/ncu-$d.csv) rows"
  { echo "== $d"; grep '^"' /tmp/ncu-$d.csv; } >> $OUT/audit.csv
done
