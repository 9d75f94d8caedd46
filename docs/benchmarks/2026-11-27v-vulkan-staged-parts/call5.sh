set -u
export WAVEKIT_DEMOS_LIBRARY=0
for shape in 512x12s2 512x10s 256x24s2 256x24s3 256x24s4 256x20s2 256x16s2 256x32s4 384x12s2 384x18s3 256x12s; do
  export WAVEKIT_ONESWEEP_SHAPE=$shape
  echo "=== shape $shape" >> $OUT/ab.log
  plan="k-$shape=after:radix_sort:keys_onesweep:vulkan"
  case $shape in 512x12s2|512x10s|256x24s3|256x20s2|256x16s2|384x12s2) plan="$plan p-$shape=after:radix_sort:pairs_onesweep:vulkan";; esac
  PLAN="$plan" LOG2_LO=22 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=60 bash bench/ab-demos.sh $OUT
done
