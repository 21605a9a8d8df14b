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
BIN=${BIN:-bin/nlsat}
BASE=${BASE:-}
[ "$BIN" != bin/nlsat ] || make -s build
command -v /usr/bin/time >/dev/null || { echo "needs GNU time (/usr/bin/time)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# build BIN SIZE: prints the peak RSS (KB) and CPU seconds of one build.
build() {
	rm -rf "$work/out"
	/usr/bin/time -o "$work/time" -f "%M %U %S" "$1" split -q --fragment "$FRAGMENT" --train "$2" --validation "$VALID" --test "$VALID" \
		--seed "$SEED" --out "$work/out" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; return 1; }
	local kb user sys
	read -r kb user sys <"$work/time"
	echo "$kb $(echo "$user + $sys" | bc -l)"
}

echo "split --fragment $FRAGMENT, validation and test $VALID each, seed $SEED: peak RSS and CPU per train size"
printf '%-8s %9s | %9s %8s | %14s | %9s\n' binary train "peak MB" "CPU s" "bytes/record" "this/base"
declare -A peak
for bin in "$BIN" ${BASE:+"$BASE"}; do
	tag=this
	[ "$bin" = "$BIN" ] || tag=base
	prev=
	for n in $SIZES; do
		read -r kb secs < <(build "$bin" "$n")
		peak[$tag.$n]=$kb
		slope=-
		if [ -n "$prev" ]; then
			slope=$(( (kb - peak[$tag.$prev]) * 1024 / (n - prev) ))
		fi
		vs=-
		if [ "$tag" = base ]; then
			vs=$(printf '%.2f' "$(echo "${peak[this.$n]} / $kb" | bc -l)")
		fi
		printf '%-8s %9d | %9d %8.1f | %14s | %9s\n' "$tag" "$n" $((kb / 1024)) "$secs" "$slope" "$vs"
		prev=$n
	done
done
