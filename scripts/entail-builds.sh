#!/usr/bin/env bash
# Builds the entailment datasets of issue 15's acceptance (3,000 / 300 /
# 300 records of V and of A, JSONL, with the shortcut audit) and re-checks
# them with TestBuiltDatasets: checksums, sizes, a third of each label in
# every stratum of every split, triples kept in one split, no premise set
# twice (as written or up to renaming), the card's features, every
# certificate (native decider, models checked) and every label against
# z3 on Φ ∪ {ψ} and Φ ∪ {neg ψ} wherever z3 decides (within
# NLSAT_Z3_TIMEOUT, default 3s, per side). Prints each build's
# time and summary, then the test's verdict and z3's tally.
#
#   scripts/entail-builds.sh                      # V and A into a temp dir
#   FRAGMENTS=V OUT=/tmp/e scripts/entail-builds.sh
set -euo pipefail
cd "$(dirname "$0")/.."
FRAGMENTS=${FRAGMENTS:-V A}
OUT=${OUT:-$(mktemp -d)}
TRAIN=${TRAIN:-3000} VALIDATION=${VALIDATION:-300} TEST=${TEST:-300}
make -s build
dirs=()
for f in $FRAGMENTS; do
  dir="$OUT/entail-$f"
  /usr/bin/time -f "$f: %e s wall, %U s user, %M KB peak" \
    bin/nlsat split --task entailment --fragment "$f" --train "$TRAIN" --validation "$VALIDATION" --test "$TEST" -q --out "$dir"
  jq -r '.files[] | "\(.path): \(.rows) records \(.labels)"' "$dir/manifest.json"
  jq -r '.audit.three_way[] | "\(.split): \(.verdict.text)"' "$dir/manifest.json"
  dirs+=("$dir")
done
NLSAT_Z3_TIMEOUT=${NLSAT_Z3_TIMEOUT:-3s} NLSAT_ENTAIL_DIRS=$(IFS=,; echo "${dirs[*]}") go test ./internal/entail -run TestBuiltDatasets -count=1 -v -timeout 2h | grep -v '^=== '
