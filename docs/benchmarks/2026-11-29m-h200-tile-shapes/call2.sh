#!/usr/bin/env bash
# Session 66, call 2: workgroup shapes of the single-pass compaction
# (PartitionIf, Unique) and of AdjacentDifference's and ReduceByKey's items
# through CUDA, by WAVEKIT_SHADER_PARAMS on one binary (9304c50), CUB in the
# same call, 2^20..2^26.
set -u
OUT=$1
P="cu-partition=after:partition:half_u32:cuda"
for s in 128x20 128x32 256x16 256x24 512x10 512x12 512x16 512x20; do
  b=${s%x*}; i=${s#*x}
  P="$P cu-partition-$s=after:partition:half_u32:cuda:BLOCK=${b}u,ITEMS=${i}u"
done
P="$P cu-unique=after:unique:runs_u32:cuda"
for s in 128x16 128x24 256x12 256x20 512x8 512x12 512x16; do
  b=${s%x*}; i=${s#*x}
  P="$P cu-unique-$s=after:unique:runs_u32:cuda:BLOCK=${b}u,ITEMS=${i}u"
done
P="$P cu-adjdiff=after:adjacent_difference:left_u32:cuda cu-adjdiff-4=after:adjacent_difference:left_u32:cuda:ITEMS=4u"
P="$P cu-rbk=after:by_key:reduce_sum_u32:cuda cu-rbk-16=after:by_key:reduce_sum_u32:cuda:ITEMS=16u cu-rbk-24=after:by_key:reduce_sum_u32:cuda:ITEMS=24u"
P="$P cu-partition-again=after:partition:half_u32:cuda cu-unique-again=after:unique:runs_u32:cuda cu-adjdiff-again=after:adjacent_difference:left_u32:cuda"
PLAN="$P" CUB_ONLY=partition,unique,adjacent_difference,by_key LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=25 CUB_S=60 BUDGET_S=520 bash bench/ab-demos.sh $OUT
