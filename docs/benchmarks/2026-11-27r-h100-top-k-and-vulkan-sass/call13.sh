#!/usr/bin/env bash
# The OneSweep pass kernel alone through Vulkan: naga's SPIR-V, and the same
# upgraded to the Vulkan memory model (spirv-opt --upgrade-memory-model:
# plain accesses private, so the driver may write them weak), each also
# after spirv-opt -O; two orders; then the driver's code of the vmm form.
OUT=$1
source bench/device-setup.sh
P=target/nvc/wk-probe; S=target/nvc/spv
for L in 24 26; do
  "${WK[@]}" $P run --kernel onesweep --adapter NVIDIA --log2 $L --runs 30 --warmup 10 naga=$S/onesweep-plain.spv vmm=$S/onesweep-vmm.spv opt=$S/onesweep-plain-opt.spv vmmopt=$S/onesweep-vmm-opt.spv 2>&1 | grep -v "^\s*$" | tail -8
  "${WK[@]}" $P run --kernel onesweep --adapter NVIDIA --log2 $L --runs 30 --warmup 10 vmmopt=$S/onesweep-vmm-opt.spv opt=$S/onesweep-plain-opt.spv vmm=$S/onesweep-vmm.spv naga=$S/onesweep-plain.spv 2>&1 | grep -v "^\s*$" | tail -8
done > $OUT/probe.log 2>&1
dir=/tmp/glc-vmm; rm -rf $dir; mkdir -p $dir
env __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_PATH=$dir __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 "${WK[@]}" $P run --kernel onesweep --adapter NVIDIA --log2 16 --runs 1 --warmup 1 vmm=$S/onesweep-vmm.spv > /dev/null 2>&1
tar -C /tmp -czf $OUT/glc-vmm.tar.gz glc-vmm
cat $OUT/probe.log | cut -c1-300
