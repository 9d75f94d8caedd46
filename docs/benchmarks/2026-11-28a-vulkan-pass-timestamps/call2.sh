#!/usr/bin/env bash
# Session 52, call 2: (A) the call floor: reduce at 2^1 (one dispatch) and 2^2..2^4
# (two), scan and compaction at 2^1..2^4, through Vulkan and CUDA; (B) ScanByKey and
# ReduceByKey through Vulkan at other ITEMS and block scans, 2^22..2^26.
set -u
OUT=$1
PLAN="vk-reduce=after:reduce:sum_f32:vulkan cu-reduce=after:reduce:sum_f32:cuda vk-scan=after:scan:auto:vulkan cu-scan=after:scan:auto:cuda vk-compact=after:compact:u32_half:vulkan cu-compact=after:compact:u32_half:cuda" \
  LOG2_LO=1 LOG2_HI=4 RUNS=30 WARMUP=3 STEP_S=30 BUDGET_S=120 bash bench/ab-demos.sh $OUT/a
PLAN="vk-sbk=after:by_key:scan_sum_u32:vulkan vk-sbk-i10=after:by_key:scan_sum_u32:vulkan:ITEMS=10u vk-sbk-i11=after:by_key:scan_sum_u32:vulkan:ITEMS=11u vk-sbk-i14=after:by_key:scan_sum_u32:vulkan:ITEMS=14u vk-sbk-wgscan=after:by_key:scan_sum_u32:vulkan:SUBGROUP_SCAN=false vk-sbk-direct=after:by_key:scan_sum_u32:vulkan:STORE_TRANSPOSED=false vk-rbk=after:by_key:reduce_sum_u32:vulkan vk-rbk-i10=after:by_key:reduce_sum_u32:vulkan:ITEMS=10u vk-rbk-i14=after:by_key:reduce_sum_u32:vulkan:ITEMS=14u vk-rbk-wgscan=after:by_key:reduce_sum_u32:vulkan:SUBGROUP_SCAN=false vk-sbk2=after:by_key:scan_sum_u32:vulkan" \
  LOG2_LO=22 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=300 bash bench/ab-demos.sh $OUT/b
