#!/usr/bin/env bash
# Issue 22's cost of emulated subgroups, on the device machine, through
# Vulkan: the micro-benchmarks and the demos with the adapter's hardware
# subgroups, then with subgroups of S lanes emulated in workgroup memory
# (`--subgroups emulated:S`), in one call. Run after bench/focus-run.sh
# (any STEPS), which unpacks the binaries from target/wk-bench.tar.gz
# (bench/pack.sh, MICRO=1) into /tmp/wk-focus/bin and sets up Vulkan, or
# alone: then it does both itself, from a Vulkan-only pack (NATIVE=0, so no
# .llvm-debs need travel):
#
#   STEPS=demos ... bash bench/focus-run.sh $OUT && bash bench/emulated-run.sh $OUT
#   bash bench/emulated-run.sh $OUT    # carry [".gl", "target/wk-bench.tar.gz"]
#
# Writes OUT/emulated.log (the table lines) and, per mode, the micro JSON
# lines and the demos' JSON report: OUT/micro-{hardware,emulated}.jsonl,
# OUT/demos-{hardware,emulated}.json. Knobs: S=32, LOG2=20..=24, RUNS=10.
set -uo pipefail
OUT=${1:?usage: bench/emulated-run.sh OUT_DIR}
BIN=${BIN:-/tmp/wk-focus/bin}
S=${S:-32}
LOG2=${LOG2:-20..=24}
RUNS=${RUNS:-10}
if [[ ! -x $BIN/wk-micro ]]; then
    for f in .gl/*.deb; do dpkg -x "$f" /; done
    ldconfig
    mkdir -p "$BIN" && tar -xzf target/wk-bench.tar.gz -C "$BIN"
fi
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp/wavekit-runtime}
mkdir -p -m 700 "$XDG_RUNTIME_DIR"
ICD=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[[ -f $ICD ]] && export VK_DRIVER_FILES=$ICD
exec > >(tee -a "$OUT/emulated.log") 2>&1
echo "== emulated-run $(date -u '+%F %T') UTC, commit $(cat "$BIN/commit.txt"), S = $S"

# The demos' variants that run on emulated subgroups (compaction's
# look-back does not yet; the scan and the sorts take reduce-then-scan
# there, and `auto` picks it).
DEMOS=(reduce scan histogram contact_sort radix_sort
    --variant sum_f32 --variant sum_u32 --variant auto --variant reduce_then_scan
    --variant uniform --variant seg32 --variant seg8
    --variant keys --variant pairs --variant keys_onesweep --variant pairs_onesweep)

for mode in hardware emulated; do
    flag=auto
    [[ $mode == emulated ]] && flag=emulated:$S
    echo "---- micro, Vulkan, $mode ($(date -u +%T))"
    timeout --kill-after=5 100 "$BIN/wk-micro" --backend vulkan --subgroups "$flag" \
        >"$OUT/micro-$mode.jsonl" 2>"$OUT/micro-$mode.err"
    echo "     exit $?"
    grep -v '^{' "$OUT/micro-$mode.err" | tail -n 30
    echo "---- demos, Vulkan, $mode, 2^$LOG2 ($(date -u +%T))"
    timeout --kill-after=5 170 "$BIN/wk-demos" "${DEMOS[@]}" --backend vulkan --subgroups "$flag" \
        --log2 "$LOG2" --runs "$RUNS" --json "$OUT/demos-$mode.json" 2>&1 | grep -v '^ *$' | tail -n 80
    echo "     exit ${PIPESTATUS[0]}"
done
