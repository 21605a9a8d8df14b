#!/usr/bin/env bash
# Measures proofs on the phase region: for each fragment, draws instances
# with nlsat generate on its defaults (the hard region), and for the first
# N unsatisfiable ones finds a proof from the certified MUS and checks
# every step (scripts/proofstats). Prints coverage within the step budget,
# the median, 95th percentile and largest number of steps, the median and
# 95th percentile of the depth, the time, and why the others got none.
#
#   scripts/proofs.sh                   # 5,000 unsat instances per fragment
#   N=500 FRAGMENTS="V A" scripts/proofs.sh
set -euo pipefail
cd "$(dirname "$0")/.."
FRAGMENTS=${FRAGMENTS:-S W V Z A}
N=${N:-5000}
SEED=${SEED:-1}
OUT=${OUT:-$(mktemp -d)}
make -s build
go build -o "$OUT/proofstats" ./scripts/proofstats
printf 'fragment\tunsat\tproved\tcoverage\tmedian steps\tp95 steps\tmax steps\tmedian depth\tp95 depth\ttime\tno proof\n'
for f in $FRAGMENTS; do
  # About half the instances of the region are unsat; draw 2.4 N.
  bin/nlsat generate --fragment "$f" --count $((N * 12 / 5)) --seed "$SEED" -q --out "$OUT/$f.jsonl"
  "$OUT/proofstats" -n "$N" < "$OUT/$f.jsonl"
done
