#!/usr/bin/env bash
# How the native decider scales, against the z3 backend, in one run:
#
# 1. For V, Z, A at n1 = n2 in SIZES_VZA (8 12 16 20 24), m = 2.5, 2.9,
#    3.5 n1, and S, W at n1 in SIZES_SW (16 24 32 48), m = 1.3, 1.6 n1:
#    N instances (30) drawn with generate --solver none (seed 21), then
#    labelled with nlsat label -j 1 by each backend: CPU time per instance
#    (user + sys of the process, over N; the process's start, a few ms, is
#    included) and its peak RSS. label certifies as generate does: models
#    shrunk and checked, MUSes certified.
# 2. generate at the paper's sizes (the defaults), GEN instances (5,000) per
#    fragment, -j 1: CPU of --solver native over --solver none, the two
#    runs alternated ROUNDS times (3) on the shared machine; the ratio of
#    the summed times is printed, with the lowest and highest round.
#
#   scripts/scaling.sh
#   N=10 SIZES_VZA="8 16" SIZES_SW=16 GEN=1000 ROUNDS=1 scripts/scaling.sh
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-30}
GEN=${GEN:-5000}
ROUNDS=${ROUNDS:-3}
SIZES_VZA=${SIZES_VZA:-"8 12 16 20 24"}
SIZES_SW=${SIZES_SW:-"16 24 32 48"}
TIMEOUT=${TIMEOUT:-10s}
BIN=${BIN:-bin/nlsat}
[ "$BIN" != bin/nlsat ] || make -s build
command -v /usr/bin/time >/dev/null || { echo "needs GNU time (/usr/bin/time)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# cpu CMD...: runs CMD, sets secs (user + sys) and rss (peak, MB).
cpu() {
	/usr/bin/time -o "$work/time" -f "%U %S %M" "$@" >/dev/null 2>"$work/err" || { cat "$work/err"; return 1; }
	local user sys kb
	read -r user sys kb <"$work/time"
	secs=$(echo "$user + $sys" | bc -l)
	rss=$((kb / 1024))
}

# row FRAGMENT N1 N2 M: the table row of one size.
row() {
	local f=$1 n1=$2 n2=$3 m=$4 file="$work/$1-$2.jsonl" line
	"$BIN" generate -q --fragment "$f" --n1 "$n1" --n2 "$n2" --m "$m" --count "$N" --seed 21 --solver none --out "$file"
	line=$(printf '%-3s %4d %4d %4d' "$f" "$n1" "$n2" "$m")
	for b in native z3; do
		cpu "$BIN" label -q -j 1 --solver "$b" --timeout "$TIMEOUT" --allow-unknown "$file" --out "$file.$b"
		local unk
		unk=$(grep -c '"label":-1,' "$file.$b" || true)
		line+=$(printf ' | %10.1f ms %6d MB %3d undecided' "$(echo "1000 * $secs / $N" | bc -l)" "$rss" "$unk")
	done
	echo "$line"
}

echo "label -j 1, $N instances per size (seed 21): CPU per instance, peak RSS, instances left undecided"
printf '%-3s %4s %4s %4s | %-37s | %-37s\n' frag n1 n2 m "native" "z3 backend"
for f in V Z A; do
	for n in $SIZES_VZA; do
		case $f in V) m=$((n * 5 / 2)) ;; Z) m=$((n * 29 / 10)) ;; A) m=$((n * 7 / 2)) ;; esac
		row "$f" "$n" "$n" "$m"
	done
done
for f in S W; do
	for n in $SIZES_SW; do
		case $f in S) m=$((n * 13 / 10)) ;; W) m=$((n * 8 / 5)) ;; esac
		row "$f" "$n" 0 "$m"
	done
done

echo
echo "generate --count $GEN -j 1 at the paper's sizes: CPU of --solver native / --solver none ($ROUNDS rounds, alternated)"
for f in S W V Z A; do
	total_none=0 total_native=0 lo="" hi=""
	for _ in $(seq "$ROUNDS"); do
		cpu "$BIN" generate -q -j 1 --fragment "$f" --count "$GEN" --seed 3 --solver none --out "$work/gen.jsonl"
		none=$secs
		cpu "$BIN" generate -q -j 1 --fragment "$f" --count "$GEN" --seed 3 --solver native --out "$work/gen.jsonl"
		native=$secs
		r=$(echo "$native / $none" | bc -l)
		total_none=$(echo "$total_none + $none" | bc -l)
		total_native=$(echo "$total_native + $native" | bc -l)
		if [ -z "$lo" ] || (($(echo "$r < $lo" | bc -l))); then lo=$r; fi
		if [ -z "$hi" ] || (($(echo "$r > $hi" | bc -l))); then hi=$r; fi
	done
	printf '%s: none %.2f s, native %.2f s per run: %.2fx (rounds %.2fx .. %.2fx)\n' "$f" \
		"$(echo "$total_none / $ROUNDS" | bc -l)" "$(echo "$total_native / $ROUNDS" | bc -l)" \
		"$(echo "$total_native / $total_none" | bc -l)" "$lo" "$hi"
done
