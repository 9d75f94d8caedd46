#!/usr/bin/env bash
# Session 58, call 11: after the review's mend (SegmentedReduce's forms per
# entry point, one shader text composed for both quad forms; the CUB
# references sharing segment_offsets): device_cuda of that build, and
# cub_ref / cub_segscan by_key at 2^20..2^22, checked on the host.
set -u
OUT=$1
source bench/device-setup.sh >/dev/null 2>&1
gunzip -c target/nvc/s58/device_cuda.gz > /tmp/device_cuda && chmod +x /tmp/device_cuda
timeout 150 "${WK[@]}" /tmp/device_cuda --test-threads 1 > $OUT/device_cuda.log 2>&1; echo "device_cuda exit=$?" >> $OUT/device_cuda.log
target/nvc/s58/cub_ref_t --log2 20 22 --warmup 2 --runs 5 --only by_key > /dev/null 2> $OUT/cub_ref.log; echo "cub_ref exit=$?" >> $OUT/cub_ref.log
target/nvc/s58/cub_segscan_t --log2 20 22 --warmup 2 --runs 5 --only by_key > /dev/null 2> $OUT/cub_segscan.log; echo "cub_segscan exit=$?" >> $OUT/cub_segscan.log
tail -3 $OUT/device_cuda.log; grep -h "exit=\|FAIL" $OUT/cub_*.log
