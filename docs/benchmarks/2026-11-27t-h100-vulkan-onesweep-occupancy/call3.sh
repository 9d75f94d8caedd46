set -u
export WAVEKIT_ABLATION=1 WAVEKIT_DEMOS_LIBRARY=0
for shape in 512x6 512x12 256x12 512x15; do
  export WAVEKIT_ONESWEEP_SHAPE=$shape
  echo "=== shape $shape" >> $OUT/ab.log
  PLAN="vk-$shape=after:radix_sort:keys_onesweep:vulkan:ABLATE=512u,FALLBACK=false cuda-$shape=after:radix_sort:keys_onesweep:cuda:ABLATE=512u,FALLBACK=false vk1-$shape=after:radix_sort:keys_onesweep:vulkan:ABLATE=513u,FALLBACK=false" LOG2_LO=24 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=45 BUDGET_S=200 bash bench/ab-demos.sh $OUT
done
