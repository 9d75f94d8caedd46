set -u
# A: pairs through Vulkan, the pass's own steps, values read late or not, four shapes
for shape in 512x10s 512x12s2 512x12s 512x8s; do
  echo "=== pairs shape $shape" >> $OUT/ab.log
  WAVEKIT_DEMOS_LIBRARY=0 WAVEKIT_ONESWEEP_SHAPE=$shape PLAN="p-$shape=after:radix_sort:pairs_onesweep:vulkan pl-$shape=after:radix_sort:pairs_onesweep:vulkan:LATE_VALUES=true" LOG2_LO=22 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=60 bash bench/ab-demos.sh $OUT
done
# B: the library, main against this build, Vulkan and CUDA; CUB
PLAN="$(tr '\n' ' ' < target/nvc/s51/call3.plan)" CUB_ONLY=radix_sort LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=45 BUDGET_S=300 bash bench/ab-demos.sh $OUT
# C: the peer, wgpu_sort ported to wgpu 30, pairs through Vulkan
source bench/device-setup.sh >/dev/null 2>&1
echo "== peers: wgpu_sort 2^16..2^27" >> $OUT/ab.log
timeout 120 "${WK[@]}" /tmp/wk-ab/wk-peers --log2 16 27 --warmup 3 --warmup-ms 200 --settle-ms 100 --runs 10 >> $OUT/ab.log 2>&1 || echo "== exit $? (peers)" >> $OUT/ab.log
cd /tmp/wk-ab && env LD_LIBRARY_PATH=/opt/wk/usr/lib/x86_64-linux-gnu WAVEKIT_LIBDEVICE=$OLDPWD/.llvm-debs/libdevice.10.bc XDG_RUNTIME_DIR=/tmp/wavekit-runtime timeout 120 ./wk-device-cuda > $OUT/device-cuda.log 2>&1; echo "device_cuda exit $?" >> $OUT/device-cuda.log
