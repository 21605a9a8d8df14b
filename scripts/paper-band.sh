#!/usr/bin/env bash
# Measures where the paper's labelling method puts the phase-change band
# of V, Z and A (issue 15): the same instances are swept twice, once with
# nlsat's complete decider and once with the paper's labeller (one plain
# Z3 quantified check per instance, unknowns dropped from P(sat)), on the
# diagonal n1 = n2 in {4, 6} with m stepped from well below to the top of
# nlsat's band. Writes docs/paper-band/{native,paper}/F-nN/ (the sweep's
# CSVs, region.json and its P(sat) curve as SVG; the other figures are
# removed), the comparison table docs/paper-band/comparison.md, and the
# paper bands internal/phase/regions/paper-{V,Z,A}.json that split
# --region paper draws from.
#
#   scripts/paper-band.sh          # about 40 minutes with -j 2 on 2 busy shared cores
#   JOBS=1 scripts/paper-band.sh
#
# The paper states no time limit for Z3; the labeller stops each check at
# Z3's default resource limit (10 million units, deterministic, about 3 to
# 5 s here) with --timeout 10s as a wall-clock backstop. Re-running resumes
# an interrupted sweep and rewrites the same points.csv bytes (timing.csv
# varies).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${JOBS:-2}
samples=${SAMPLES:-40}
out=docs/paper-band
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -buildvcs=false -o "$bin/nlsat" ./cmd/nlsat
# fragment n m-range m-step
grid=(
  "V 4 4-14 2" "V 6 6-21 3"
  "Z 4 4-18 2" "Z 6 6-27 3"
  "A 4 4-24 4" "A 6 6-36 5"
)
for labeller in native paper; do
  for g in "${grid[@]}"; do
    read -r f n m step <<<"$g"
    "$bin/nlsat" phase-sweep --labeller "$labeller" --fragment "$f" --n1 "$n" --n2 "$n" --m "$m" --m-step "$step" \
      --samples "$samples" --seed 1 --timeout 10s -j "$jobs" -q --out "$out/$labeller/$f-n$n"
    find "$out/$labeller/$f-n$n" -type f ! -name '*.csv' ! -name points.jsonl ! -name region.json ! -name "psat-alpha-$f.svg" -delete
    rm -f "$out/$labeller/$f-n$n"/fig*.csv "$out/$labeller/$f-n$n"/heatmap-*.csv "$out/$labeller/$f-n$n"/time-alpha-*.csv
  done
done
go run ./scripts/paperband -regions internal/phase/regions "$out" >"$out/comparison.md"
