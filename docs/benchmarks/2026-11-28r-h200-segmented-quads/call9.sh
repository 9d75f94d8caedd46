#!/usr/bin/env bash
# Session 58, call 9: the CUB references after their segmented scans' check
# moved into cub_common.cuh (segmented_sums_hold): cub_ref (CCCL 3.0) and
# cub_segscan (CCCL main), built on the build machine, by_key at 2^20..2^22
# (checked on the host at every size).
set -u
OUT=$1
target/nvc/s58/cub_ref_t --log2 20 22 --warmup 2 --runs 5 --only by_key > $OUT/cub_ref.jsonl 2> $OUT/cub_ref.log; echo "cub_ref exit=$?" >> $OUT/cub_ref.log
target/nvc/s58/cub_segscan --log2 20 22 --warmup 2 --runs 5 --only by_key > $OUT/cub_segscan.jsonl 2> $OUT/cub_segscan.log; echo "cub_segscan exit=$?" >> $OUT/cub_segscan.log
grep -h "exit=\|FAIL" $OUT/*.log
