set -u
PLAN="$(tr '\n' ' ' < target/nvc/s50/call8.plan)" CUB_ONLY=by_key LOG2_LO=22 LOG2_HI=26 RUNS=10 WARMUP=3 STEP_S=30 BUDGET_S=170 bash bench/ab-demos.sh $OUT
