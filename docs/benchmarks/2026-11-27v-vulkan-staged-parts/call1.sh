set -u
export WAVEKIT_DEMOS_LIBRARY=0
for shape in 512x10s 512x10s2 512x12s2 512x12s3 512x14s2 512x15s3 512x15s5 512x16s2 512x16s4 384x15s3 384x16s2; do
  export WAVEKIT_ONESWEEP_SHAPE=$shape
  echo "=== shape $shape" >> $OUT/ab.log
  plan="k-$shape=after:radix_sort:keys_onesweep:vulkan"
  case $shape in 512x10s|512x10s2|512x12s2|512x12s3|512x8s2|512x15s3|512x16s4) plan="$plan p-$shape=after:radix_sort:pairs_onesweep:vulkan";; esac
  cub=""; [[ $shape == 512x10s ]] && cub=radix_sort
  CUB_ONLY=$cub PLAN="$plan" LOG2_LO=22 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=60 bash bench/ab-demos.sh $OUT
done
