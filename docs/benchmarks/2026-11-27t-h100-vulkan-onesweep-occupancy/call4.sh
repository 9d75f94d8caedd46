set -u
export WAVEKIT_ABLATION=1 WAVEKIT_DEMOS_LIBRARY=0
for shape in 512x6 512x8 512x10 512x12 256x12 256x16 384x12; do
  export WAVEKIT_ONESWEEP_SHAPE=$shape
  echo "=== shape $shape" >> $OUT/ab.log
  PLAN="occ-$shape=after:radix_sort:keys_onesweep:vulkan:STAGE_IN_COUNTERS=true,ABLATE=512u,FALLBACK=false sic-$shape=after:radix_sort:keys_onesweep:vulkan:STAGE_IN_COUNTERS=true,FALLBACK=false base-$shape=after:radix_sort:keys_onesweep:vulkan:FALLBACK=false" LOG2_LO=22 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=40 BUDGET_S=130 bash bench/ab-demos.sh $OUT
done
for shape in 512x6 512x10 512x12; do
  export WAVEKIT_ONESWEEP_SHAPE=$shape
  echo "=== pairs shape $shape" >> $OUT/ab.log
  PLAN="occp-$shape=after:radix_sort:pairs_onesweep:vulkan:STAGE_IN_COUNTERS=true,ABLATE=512u,FALLBACK=false sicp-$shape=after:radix_sort:pairs_onesweep:vulkan:STAGE_IN_COUNTERS=true,FALLBACK=false basep-$shape=after:radix_sort:pairs_onesweep:vulkan:FALLBACK=false" LOG2_LO=22 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=40 BUDGET_S=130 bash bench/ab-demos.sh $OUT
done
