# Sourced by the scripts that measure nlsat's cost (pipeline-cost.sh,
# split-memory.sh), after cd to the repository: BIN (built first when it
# is bin/nlsat) and BASE from the environment, GNU time, a work directory
# removed on exit, and
#
#   cpu NAME CMD...   runs CMD (its output discarded; its errors shown if
#                     it fails) and records its user + sys seconds in
#                     secs[NAME] and its peak RSS in KB in kb[NAME].
BIN=${BIN:-bin/nlsat}
BASE=${BASE:-}
[ "$BIN" != bin/nlsat ] || make -s build
command -v /usr/bin/time >/dev/null || { echo "needs GNU time (/usr/bin/time)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

declare -A secs kb
cpu() {
	local name=$1
	shift
	/usr/bin/time -o "$work/time" -f "%U %S %M" "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; return 1; }
	local user sys k
	read -r user sys k <"$work/time"
	secs[$name]=$(echo "$user + $sys" | bc -l)
	kb[$name]=$k
}
