#!/usr/bin/env bash
# How a split's peak memory grows with its size, in one run: for each
# train size of SIZES, the peak RSS and CPU (user + sys) of
#
#   split --fragment FRAGMENT --train SIZE --validation VALID --test VALID
#
# (the default surface balance and audit), and between consecutive sizes
# the growth of the peak per train record added. With BASE set to an
# older nlsat binary, the same builds of BASE follow, measured on the same
# machine and load, with the ratio of the peaks.
#
#   scripts/split-memory.sh
#   SIZES="20000 80000 320000" BASE=/tmp/nlsat-old scripts/split-memory.sh
set -euo pipefail
cd "$(dirname "$0")/.."
FRAGMENT=${FRAGMENT:-S}
SIZES=${SIZES:-"20000 80000"}
VALID=${VALID:-2000}
SEED=${SEED:-1}
. scripts/measure.sh

echo "split --fragment $FRAGMENT, validation and test $VALID each, seed $SEED: peak RSS and CPU per train size"
printf '%-8s %9s | %9s %8s | %14s | %9s\n' binary train "peak MB" "CPU s" "bytes/record" "this/base"
for bin in "$BIN" ${BASE:+"$BASE"}; do
	tag=this
	[ "$bin" = "$BIN" ] || tag=base
	prev=
	for n in $SIZES; do
		rm -rf "$work/out"
		cpu "$tag.$n" "$bin" split -q --fragment "$FRAGMENT" --train "$n" --validation "$VALID" --test "$VALID" --seed "$SEED" --out "$work/out"
		slope=-
		if [ -n "$prev" ]; then
			slope=$(((kb[$tag.$n] - kb[$tag.$prev]) * 1024 / (n - prev)))
		fi
		vs=-
		if [ "$tag" = base ]; then
			vs=$(printf '%.2f' "$(echo "${kb[this.$n]} / ${kb[base.$n]}" | bc -l)")
		fi
		printf '%-8s %9d | %9d %8.1f | %14s | %9s\n' "$tag" "$n" $((kb[$tag.$n] / 1024)) "${secs[$tag.$n]}" "$slope" "$vs"
		prev=$n
	done
done
