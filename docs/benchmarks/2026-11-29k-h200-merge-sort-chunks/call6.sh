#!/usr/bin/env bash
# Session 65, call 6: the radix pair sort through CUDA (the demo's own
# steps, as the library's) with its values read after the rank
# (LATE_VALUES, by WAVEKIT_SHADER_PARAMS) at larger tiles
# (WAVEKIT_ONESWEEP_SHAPE); CUB.
set -u
OUT=$1
run() { # LABEL SHAPE PARAMS (the shape reaches only the demo's own steps: WAVEKIT_DEMOS_LIBRARY=0)
    local label=$1 shape=$2 params=$3 entry
    entry="$label=after:radix_sort:pairs:cuda${params:+:$params}"
    if [[ -n $shape ]]; then
        WAVEKIT_ONESWEEP_SHAPE=$shape PLAN="$entry" LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=35 BUDGET_S=40 bash bench/ab-demos.sh $OUT/$label
    else
        PLAN="$entry" LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=35 BUDGET_S=40 bash bench/ab-demos.sh $OUT/$label
    fi
    cat $OUT/$label/ab.log >> $OUT/ab.log; rm -rf $OUT/$label
}
PLAN="cu-pairs=after:radix_sort:pairs:cuda" CUB_ONLY=radix_sort LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=35 BUDGET_S=120 bash bench/ab-demos.sh $OUT
run late12 "" LATE_VALUES=true
run late14 512x14 LATE_VALUES=true
run late15n 512x15 LATE_VALUES=true,WIDE_COUNTERS=false
run early15n 512x15 WIDE_COUNTERS=false
run late384x20 384x20 LATE_VALUES=true
run late384x20r2 384x20r2 LATE_VALUES=true
run late16n 512x16 LATE_VALUES=true,WIDE_COUNTERS=false
run base12 "" ""
