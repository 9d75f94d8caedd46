#!/usr/bin/env bash
# Vulkan with and without robust buffer access (wgpu-hal 30.0.1 patched to
# leave robustBufferAccess and robustBufferAccess2 off; naga's buffer checks
# stay off as wgpu leaves them with robustness2), same commit otherwise.
OUT=$1
source bench/device-setup.sh
BIN=/tmp/wk-ab; rm -rf $BIN; mkdir -p $BIN; tar -xzf target/wk-bench.tar.gz -C $BIN
gunzip -c target/wk-demos-nr.gz > $BIN/wk-nr; chmod +x $BIN/wk-nr
cat $BIN/commit.txt
T=(--log2 20..=26 --warmup 3 --warmup-ms 200 --settle-ms 100 --runs 10)
for round in 1 2; do
for b in wk-demos wk-nr; do
  for d in "radix_sort --variant keys --variant pairs" "scan --variant auto" "compact --variant u32_half" "top_k --variant largest_f32_k64_unordered" "reduce --variant sum_u32"; do
    echo "== $round $b $d"; timeout 60 env "${WK[@]}" $BIN/$b $d --backend vulkan "${T[@]}" 2>&1 | grep -E "^ok|FAIL|rror"
  done
done
done > $OUT/robust.log 2>&1
dir=/tmp/glc-nr; rm -rf $dir; mkdir -p $dir
env __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_PATH=$dir __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 "${WK[@]}" $BIN/wk-nr radix_sort --variant keys --backend vulkan --log2 16..=16 --runs 1 --warmup 1 > /dev/null 2>&1
tar -C /tmp -czf $OUT/glc-nr.tar.gz glc-nr
grep -c "^ok" $OUT/robust.log; grep -c FAIL $OUT/robust.log
