#!/usr/bin/env bash
# Vulkan SASS capture through NVIDIA's shader disk cache, and shape timings.
set -uo pipefail
OUT=$1
source bench/device-setup.sh
BIN=/tmp/wk-ab; rm -rf $BIN; mkdir -p $BIN; tar -xzf target/wk-bench.tar.gz -C $BIN
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
cap() { # name, env..., demo args
  local name=$1; shift
  local dir=/tmp/glc-$name; rm -rf $dir; mkdir -p $dir
  env __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_PATH=$dir __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 "$@" >$OUT/cap-$name.log 2>&1
  echo "== $name rc=$?"; find $dir -type f | xargs ls -la
  mkdir -p $OUT/objs-$name
  for toc in $(find $dir -name '*.toc'); do ./target/nvc/nvcachedec $toc $OUT/objs-$name/$(basename $(dirname $toc)) >>$OUT/dec-$name.log 2>&1; done
  tail -3 $OUT/dec-$name.log
  tar -C $dir -czf $OUT/glc-$name.tar.gz .
}
D=(--log2 16..=16 --warmup 1 --runs 1)
cap keys6 "${WK[@]}" $BIN/wk-demos radix_sort --variant keys --backend vulkan "${D[@]}"
cap keys12 "${WK[@]}" WAVEKIT_ONESWEEP_SHAPE=512x12 $BIN/wk-demos radix_sort --variant keys --backend vulkan "${D[@]}"
cap keys15 "${WK[@]}" WAVEKIT_ONESWEEP_SHAPE=512x15 $BIN/wk-demos radix_sort --variant keys --backend vulkan "${D[@]}"
cap pairs6 "${WK[@]}" $BIN/wk-demos radix_sort --variant pairs --backend vulkan "${D[@]}"
cap scan "${WK[@]}" $BIN/wk-demos scan --backend vulkan "${D[@]}"
find $OUT -type f | head -100 | xargs ls -la | awk '{print $5, $9}'
# timings: same binary, shapes, both back ends
T=(--log2 20..=26 --warmup 3 --warmup-ms 200 --settle-ms 100 --runs 5)
for s in 512x6 512x12 512x15; do
  echo "== vulkan keys $s" | tee -a $OUT/times.log; timeout 60 env "${WK[@]}" WAVEKIT_ONESWEEP_SHAPE=$s $BIN/wk-demos radix_sort --variant keys --backend vulkan "${T[@]}" 2>&1 | grep -E "ok|FAIL|rror" | tee -a $OUT/times.log
  echo "== cuda keys $s" | tee -a $OUT/times.log; timeout 60 env "${WK[@]}" WAVEKIT_ONESWEEP_SHAPE=$s $BIN/wk-demos radix_sort --variant keys --backend cuda "${T[@]}" 2>&1 | grep -E "ok|FAIL|rror" | tee -a $OUT/times.log
done
