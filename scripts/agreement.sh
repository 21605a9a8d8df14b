#!/usr/bin/env bash
# Agreement of the native decider with Z3 at the sizes of scripts/scaling.sh:
# for each fragment and size, COUNT instances are drawn (generate --solver
# none), labelled by native (nlsat label: every model checked, every MUS
# certified minimal; label fails on any certificate that does not hold), and
# compared with Z3 (nlsat crosscheck FILE: exit 1 on any disagreement).
#
#   scripts/agreement.sh                      # 2,000 per fragment and size
#   COUNT=200 SIZES_VZA="8 16" scripts/agreement.sh
#
# m is 2.5, 2.9, 3.5 n1 for V, Z, A (n2 = n1) and 1.3, 1.6 n1 for S, W, near
# the phase change. Z3's limit per instance is TIMEOUT (default 2s); what it
# leaves undecided is counted, not compared. Exit status 1 on any
# disagreement or failed certificate.
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${COUNT:-2000}
JOBS=${JOBS:-2}
TIMEOUT=${TIMEOUT:-2s}
SEED=${SEED:-13}
SIZES_VZA=${SIZES_VZA:-"8 12 16 20 24"}
SIZES_SW=${SIZES_SW:-"16 24 32 48"}
BIN=${BIN:-bin/nlsat}
[ "$BIN" != bin/nlsat ] || make -s build
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0

# one FRAGMENT N1 N2 M: draw, label with native, compare with Z3.
one() {
	local f=$1 n1=$2 n2=$3 m=$4 file="$work/$1-$2.jsonl"
	"$BIN" generate -q --fragment "$f" --n1 "$n1" --n2 "$n2" --m "$m" --count "$COUNT" \
		--seed "$SEED" --solver none --out "$file"
	local t0=$SECONDS
	if ! "$BIN" label -q -j "$JOBS" "$file" --out "$file.native" 2>"$work/err"; then
		echo "$f n1=$n1: native labelling or a certificate failed:"; cat "$work/err"; status=1; return
	fi
	local sat unsat
	sat=$(grep -c '"label":1,' "$file.native" || true)
	unsat=$(grep -c '"label":0,' "$file.native" || true)
	echo "== $f n1=$n1 n2=$n2 m=$m: $COUNT instances, native sat $sat unsat $unsat (models checked, MUSes certified; $((SECONDS - t0)) s)"
	"$BIN" crosscheck -q -j "$JOBS" --timeout "$TIMEOUT" "$file" || status=1
}

for f in V Z A; do
	for n in $SIZES_VZA; do
		case $f in V) m=$((n * 5 / 2)) ;; Z) m=$((n * 29 / 10)) ;; A) m=$((n * 7 / 2)) ;; esac
		one "$f" "$n" "$n" "$m"
	done
done
for f in S W; do
	for n in $SIZES_SW; do
		case $f in S) m=$((n * 13 / 10)) ;; W) m=$((n * 8 / 5)) ;; esac
		one "$f" "$n" 0 "$m"
	done
done
exit $status
