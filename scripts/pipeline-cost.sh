#!/usr/bin/env bash
# What a dataset costs beside its decisions, in one run: for each fragment
# of FRAGMENTS (S W V Z A), the CPU (user + sys, one worker) and peak RSS of
#
#   generate --solver none   COUNT instances, drawn but not decided
#   generate                 COUNT instances, decided and certified (native)
#   split                    COUNT records: 80% train, 10% validation, 10% test
#
# and the ratios generate / none and split / generate. With BASE set to an
# older nlsat binary, the same three runs of BASE follow each fragment's
# and the ratio of this binary's CPU to BASE's is printed, measured side by
# side on the same machine and load.
#
#   scripts/pipeline-cost.sh
#   COUNT=2000 FRAGMENTS="V A" BASE=/tmp/nlsat-old scripts/pipeline-cost.sh
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${COUNT:-2000}
FRAGMENTS=${FRAGMENTS:-"S W V Z A"}
SEED=${SEED:-1}
. scripts/measure.sh
train=$((COUNT * 8 / 10))
rest=$(((COUNT - train) / 2))

mb() { echo $((kb[$1] / 1024)); }

# runs BIN TAG FRAGMENT: the three runs of one binary on one fragment.
runs() {
	local bin=$1 tag=$2 f=$3
	rm -rf "$work/out"
	mkdir -p "$work/out"
	cpu "$tag none" "$bin" generate -q -j 1 --fragment "$f" --count "$COUNT" --seed "$SEED" --solver none --out "$work/out/none.jsonl"
	cpu "$tag generate" "$bin" generate -q -j 1 --fragment "$f" --count "$COUNT" --seed "$SEED" --out "$work/out/gen.jsonl"
	cpu "$tag split" "$bin" split -q -j 1 --fragment "$f" --train "$train" --validation "$rest" --test "$rest" --seed "$SEED" --out "$work/out/split"
}

ratio() { echo "${secs[$1]} / ${secs[$2]}" | bc -l; }

echo "CPU seconds (user + sys, -j 1) and peak RSS, $COUNT instances or records per run, seed $SEED"
printf '%-4s %-8s | %10s %7s | %10s %7s | %10s %7s | %9s %9s\n' frag binary "none s" MB "generate s" MB "split s" MB "gen/none" "split/gen"
for f in $FRAGMENTS; do
	tags=(this)
	runs "$BIN" this "$f"
	if [ -n "$BASE" ]; then
		runs "$BASE" base "$f"
		tags+=(base)
	fi
	for t in "${tags[@]}"; do
		printf '%-4s %-8s | %10.1f %7d | %10.1f %7d | %10.1f %7d | %9.2f %9.2f\n' "$f" "$t" \
			"${secs[$t none]}" "$(mb "$t none")" "${secs[$t generate]}" "$(mb "$t generate")" "${secs[$t split]}" "$(mb "$t split")" \
			"$(ratio "$t generate" "$t none")" "$(ratio "$t split" "$t generate")"
	done
	if [ -n "$BASE" ]; then
		printf '%-4s this/base: generate %.2f, split %.2f\n' "$f" "$(ratio "this generate" "base generate")" "$(ratio "this split" "base split")"
	fi
done
