#!/usr/bin/env bash
# Session 63, call 4: PartitionIf on CUDA after call 3 (full tiles loaded
# without a test, 256 x 32, RANK_BITS, 4 workgroups an SM: slower than
# the base from 2^22): the same pack at other shapes (WAVEKIT_SHADER_PARAMS;
# the host compiles the partition for 4 workgroups an SM whatever the
# shape), against the base build; CUB.
set -u
OUT=$1
gunzip -c target/nvc/s63/base.gz > /tmp/base-demos && chmod +x /tmp/base-demos
B=/tmp/base-demos
V=partition:half_u32:cuda
PLAN="pa=after:$V pa-base=$B:$V pa16=after:$V:ITEMS=16u,RANK_BITS=false pa16b=after:$V:ITEMS=16u pa24=after:$V:ITEMS=24u pa20=after:$V:ITEMS=20u,RANK_BITS=false pa12=after:$V:ITEMS=12u,RANK_BITS=false pa32n=after:$V:RANK_BITS=false pa-base2=$B:$V pa16-2=after:$V:ITEMS=16u,RANK_BITS=false" \
  CUB_ONLY=partition LOG2_LO=20 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=300 bash bench/ab-demos.sh $OUT
