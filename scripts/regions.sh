#!/usr/bin/env bash
# Re-measures the regions nlsat ships (internal/phase/regions) with the
# default phase sweep of every fragment, and prints the refit of
# phase.HardM's coefficients to paste into internal/phase/hard.go. Run it
# whenever the sampler or the labels change what is hard.
#
#   scripts/regions.sh            # about 6 minutes on 2 cores
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# No version stamp: the shipped files name the toolkit 0.1.0-dev.
go build -buildvcs=false -o "$out/nlsat" ./cmd/nlsat
"$out/nlsat" phase-sweep --out "$out/sweep"
for f in S W V Z A; do
  cp "$out/sweep/$f/region.json" "internal/phase/regions/$f.json"
done
go run ./scripts/fithardm "$out/sweep"
