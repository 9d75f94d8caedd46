#!/usr/bin/env bash
# Issue 35's TopK row in one device call: the new TopK (the packed wk-demos)
# against the main binary's and against CUB's DeviceTopK (the packed
# cub_topk), both top_k variants, CUDA and Vulkan, 2^20..2^26, through
# bench/ab-demos.sh (one log, OUT_DIR/ab.log). From the repository root, with
# .llvm-debs, .gl, target/wk-bench.tar.gz and the main binary carried:
#
#   bash bench/topk-run.sh OUT_DIR
#
# target/wk-bench.tar.gz: `CLI=0 PROBE=0 MICRO=0 PEERS=0 PREBUILT=topk bash
# bench/pack.sh` (with the pip nvcc wheel, which builds cub_topk). MAIN (the
# main binary, gzipped; default target/wk-demos-main.gz). In order: the new
# build through CUDA, CUB, main through CUDA, the new build and main through
# Vulkan, then three variants of the new build through CUDA where time is
# left: the relay only above 2^22 keys (default: above 2^20), the relay
# from 2^19 (and for k = 1024 always), 16 keys a thread a tile.
# The other knobs are ab-demos.sh's (defaults here: LOG2_LO=20 LOG2_HI=26
# STEP_S=150 BUDGET_S=560; main's CPU check sorts every key, about 15 s at
# 2^26 for each variant).
set -uo pipefail
MAIN=${MAIN:-target/wk-demos-main.gz}
V=largest_f32_k64,largest_f32_k1024
PLAN="after-cuda=after:top_k:$V:cuda"
PLAN+=" main-cuda=$MAIN:top_k:$V:cuda"
PLAN+=" after-vulkan=after:top_k:$V:vulkan"
PLAN+=" main-vulkan=$MAIN:top_k:$V:vulkan"
PLAN+=" after-cuda-relay32k=after:top_k:$V:cuda:RELAY_MIN=32768u"
PLAN+=" after-cuda-relay2k=after:top_k:$V:cuda:RELAY_MIN=2048u"
PLAN+=" after-cuda-items16=after:top_k:$V:cuda:ITEMS=16u"
export PLAN CUB_ONLY=top_k
export LOG2_LO=${LOG2_LO:-20} LOG2_HI=${LOG2_HI:-26} STEP_S=${STEP_S:-150} BUDGET_S=${BUDGET_S:-560}
exec bash "$(dirname "$0")/ab-demos.sh" "$@"
