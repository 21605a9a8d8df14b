#!/usr/bin/env bash
# The full agreement run of the native decision procedure against Z3:
# phase-region instances of every fragment, generalisation-size instances,
# and instances with repeated words. Prints one crosscheck table per set.
#
#   scripts/crosscheck-full.sh                 # 20,000 per fragment (hours)
#   COUNT=2000 GEN=500 REP=500 scripts/crosscheck-full.sh
#
# Z3's limit per instance is TIMEOUT (default 300ms): an instance Z3 leaves
# undecided is counted, not compared. Exit status 1 on any disagreement.
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${COUNT:-20000}
GEN=${GEN:-1000}
REP=${REP:-1000}
TIMEOUT=${TIMEOUT:-300ms}
JOBS=${JOBS:-2}
make -s build
bin=bin/nlsat
status=0
run() { echo "== $*"; "$bin" crosscheck -q -j "$JOBS" --timeout "$TIMEOUT" "$@" || status=1; echo; }

run --fragment S,W,V,Z,A --count "$COUNT" --seed 1
run --fragment S,W --count "$GEN" --n1 16-24 --seed 2
run --fragment V,Z,A --count "$GEN" --n1 8-12 --n2 8-24 --seed 3
run --fragment S,W --count "$REP" --allow-repeats --seed 4
run --fragment V,Z,A --count "$REP" --allow-repeats --seed 5
exit $status
