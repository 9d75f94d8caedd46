#!/usr/bin/env bash
# Session 65, call 7: as call 6, through the demo's own steps
# (WAVEKIT_DEMOS_LIBRARY=0, which WAVEKIT_ONESWEEP_SHAPE reaches; call 6's
# shapes went through the library and were not applied), 2^24..2^26.
set -u
OUT=$1
export WAVEKIT_DEMOS_LIBRARY=0
run() { # LABEL SHAPE PARAMS
    local label=$1 shape=$2 params=$3 entry
    entry="$label=after:radix_sort:pairs:cuda${params:+:$params}"
    WAVEKIT_ONESWEEP_SHAPE=$shape PLAN="$entry" LOG2_LO=24 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=25 BUDGET_S=30 bash bench/ab-demos.sh $OUT/$label
    cat $OUT/$label/ab.log >> $OUT/ab.log; rm -rf $OUT/$label
}
run own512x12 512x12 ""
run late512x15n 512x15 LATE_VALUES=true,WIDE_COUNTERS=false
run late384x20 384x20 LATE_VALUES=true
run late384x20r2 384x20r2 LATE_VALUES=true
run late512x14 512x14 LATE_VALUES=true
run late384x16 384x16 LATE_VALUES=true
