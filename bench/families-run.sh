#!/usr/bin/env bash
# Issue 35's benchmark on the device machine: a page per family
# (wavekit-bench writes one for every demo it finds in the raw results),
# each family through CUDA and Vulkan with CUB's counterpart in one call,
# so that every ratio on a page, Vulkan/CUDA included, divides numbers of
# one call. They would not fit one 600 s call (the six standard demos take
# two; these groups' times are not yet measured); GROUP picks a third:
#
#   GROUP=1 bash bench/families-run.sh OUT_DIR   # by_key: ReduceByKey, ScanByKey,
#                                                # SegmentedReduce, SegmentedScan
#   GROUP=2 ...                                  # merge_sort, top_k, binary_search, segmented_sort
#   GROUP=3 ...                                  # histogram_range, arg_reduce, transform_reduce,
#                                                # adjacent_difference, partition, unique
#
# then here, per group: cargo run --release --manifest-path bench/Cargo.toml --
# --raw RAW --out docs/benchmarks/DATE-families/groupN. It is bench/device-run.sh
# with DEMOS set and these defaults (each may be overridden): PARTS="cuda vulkan
# cub", every variant from 2^16 to 2^24, the first variant of each demo on to
# 2^28 through CUDA and 2^26 through Vulkan (issue 35 asks 2^16 to 2^28),
# BUDGET_S=555. Carry as for device-run.sh (bench/README.md); top_k's CUB
# counterpart is the packed cub_topk (bench/pack.sh builds it).
set -uo pipefail
OUT=${1:?usage: GROUP=1|2|3 bash bench/families-run.sh OUT_DIR}
case ${GROUP:-} in
    1) families="by_key" ;;
    2) families="merge_sort top_k binary_search segmented_sort" ;;
    3) families="histogram_range arg_reduce transform_reduce adjacent_difference partition unique" ;;
    *)
        echo "bench/families-run.sh: GROUP is '${GROUP:-}', not 1, 2 or 3" >&2
        exit 2
        ;;
esac
export DEMOS=$families
export PARTS=${PARTS:-cuda vulkan cub}
export LOG2_LO=${LOG2_LO:-16} LOG2_MID=${LOG2_MID:-24} LOG2_HI=${LOG2_HI:-28}
export VULKAN_LOG2_HI=${VULKAN_LOG2_HI:-26} BUDGET_S=${BUDGET_S:-555}
exec bash "$(dirname "$0")/device-run.sh" "$OUT"
