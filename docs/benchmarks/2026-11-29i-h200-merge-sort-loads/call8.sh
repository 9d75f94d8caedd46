#!/usr/bin/env bash
# Session 64, call 8: NVIDIA's Vulkan shader cache of each family's
# kernels as the library builds them (ce3b8c0's pack), one run at 2^16 each,
# for reading the driver's code afterwards (nvcachedec, nvdisasm).
set -u
OUT=$1
source bench/device-setup.sh >/dev/null 2>&1
BIN=/tmp/wk-ab; mkdir -p $BIN; tar -xzf target/wk-bench.tar.gz -C $BIN
mkdir -p /tmp/glc
for e in scan:inclusive_max_u32 scan:auto segmented_sort:mixed_pairs contact_sort:seg16 top_k:largest_f32_k64 histogram_range:uniform_u32 reduce:sum_u32 adjacent_difference:left_u32 binary_search:lower_u32 arg_reduce:min_f32 transform_reduce:square_sum_f32 by_key:segmented_sum_u32 by_key:scan_sum_u32 by_key:segmented_scan_u32 histogram:uniform; do
  d=/tmp/glc/${e%%:*}-${e#*:}; mkdir -p $d
  env __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_PATH=$d __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 \
    "${WK[@]}" $BIN/wk-demos ${e%%:*} --variant ${e#*:} --backend vulkan \
    --log2 16..=16 --warmup 1 --runs 1 > $d.log 2>&1; echo "== cap $e rc=$? $(grep -c '^ok' $d.log) ok"
done
tar -C /tmp -czf $OUT/glc.tar.gz glc
