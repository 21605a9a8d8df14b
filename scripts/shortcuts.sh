#!/usr/bin/env bash
# Builds each fragment twice, on the defaults and on the paper's
# distribution (the paper's sampler, which allows two sentences of one
# meaning, in the region a phase sweep with that sampler measures, with
# equal counts per stratum and no surface balance: --allow-equivalent
# --balance strata), audits both, and prints every baseline of the audit
# on validation and test side by side, with the metadata verdicts, the
# head balance and the difficulty profile.
#
#   scripts/shortcuts.sh                       # S V Z A at 30,000/3,000/3,000
#   FRAGMENTS="V A" TRAIN=6000 EVAL=600 scripts/shortcuts.sh
#
# Needs jq. The builds are kept in OUT (default a temporary directory).
set -euo pipefail
cd "$(dirname "$0")/.."
FRAGMENTS=${FRAGMENTS:-S V Z A}
TRAIN=${TRAIN:-30000}
EVAL=${EVAL:-3000}
SEED=${SEED:-1}
JOBS=${JOBS:-2}
OUT=${OUT:-$(mktemp -d)}
make -s build
bin=bin/nlsat
printf '%s\t%s\t%s\t%s\t%s\t%s\n' fragment distribution baseline validation test build
for f in $FRAGMENTS; do
  if [ ! -f "$OUT/sweep-$f/region.json" ]; then
    "$bin" phase-sweep --fragment "$f" --allow-equivalent -j "$JOBS" -q --out "$OUT/sweep-$f"
  fi
  for dist in ours paper; do
    flags=()
    [ "$dist" = paper ] && flags=(--balance strata --allow-equivalent --region "$OUT/sweep-$f/region.json")
    dir="$OUT/$f-$dist"
    start=$(date +%s)
    "$bin" split --fragment "$f" --train "$TRAIN" --validation "$EVAL" --test "$EVAL" --seed "$SEED" \
      -j "$JOBS" -q --audit=false "${flags[@]}" --out "$dir"
    took=$(( $(date +%s) - start ))
    "$bin" audit --json "$dir" > "$dir/audit.json"
    jq -r --arg f "$f" --arg d "$dist" --arg took "${took}s" '
      def pct: "\(.accuracy*1000|round/10)% [\(.lo*1000|round/10), \(.hi*1000|round/10)]";
      ([.results[] | select(.split=="validation")][0].baselines) as $v
      | ([.results[] | select(.split=="test")][0].baselines) as $t
      | range(0; $t|length) as $i
      | "\($f)\t\($d)\t\($t[$i].name)\t\($v[$i]|pct)\t\($t[$i]|pct)\t\($took)"' \
      "$dir/audit.json"
    jq -r --arg f "$f" --arg d "$dist" '
      .metadata[] | "\($f)\t\($d)\tmetadata \(.split)\t\(.verdict.text)\t\([.first_k[] | "\(.k): \(.sat)/\(.unsat)"] | join(" "))\t"' "$dir/audit.json"
    jq -r --arg f "$f" --arg d "$dist" '
      .difficulty[] | select(.split=="test") | "\($f)\t\($d)\tone-step (test)\t\(.with_pair)/\(.unsat) unsat with a pair\t\(.one_step.accuracy*1000|round/10)%\t"' "$dir/audit.json"
  done
done
echo "builds in $OUT" >&2
