#!/bin/bash
# What a sharded split costs beside one process, measured in one run:
# for each build, one process, then its N shards and the merge in their
# three turns (pilots, residual pilots, candidates), each shard and merge
# a process of its own (-j 1, one after the other). It prints the CPU
# (user + sys seconds) of the one process, of the shards summed, of the
# two merges that fit the balance and of the last merge, which selects
# and writes; each as a share of the one process; the shards' storage at
# its largest (the most it held after any shard or merge but the last
# merge, the models handed over included) against the dataset's; and
# whether the merged dataset has the bytes of
# the one process. Usage: scripts/shard-cost.sh [N] (default 4 shards),
# with BIN=path/to/nlsat (default bin/nlsat, built first) and BUILDS to
# choose the builds (default: V 12,000 / 1,200 / 1,200 and A 3,000 / 300
# / 300, seed 1).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/measure.sh
. scripts/measure.sh
n=${1:-4}
BUILDS=${BUILDS:-"V:12000:1200 A:3000:300"}
printf '%-22s %9s %9s %6s %9s %6s %9s %6s %9s %9s %6s %s\n' build one-cpu shards-cpu ratio fits-cpu ratio merge-cpu ratio shards-MB data-MB ratio same
for b in $BUILDS; do
	IFS=: read -r frag train eval <<<"$b"
	args=(split --fragment "$frag" --train "$train" --validation "$eval" --test "$eval" --seed 1 -q -j 1)
	d=$work/$frag
	mkdir -p "$d"
	cpu one "$BIN" "${args[@]}" --out "$d/one"
	shards=0 fits=0 last=0 smb=0
	# peak keeps the largest storage the shards and the handed-over
	# models have held so far (the last merge drops the models).
	peak() {
		local mb
		mb=$({ du -scm --apparent-size "$d"/shard-* "$d"/.nlsat-balance-* 2>/dev/null || true; } | awk 'END {print $1}')
		if [ "$mb" -gt "$smb" ]; then smb=$mb; fi
	}
	for turn in 1 2 3; do
		for i in $(seq 0 $((n - 1))); do
			cpu shard "$BIN" "${args[@]}" --shard-index "$i" --shard-count "$n" --out "$d/shard-$i"
			shards=$(echo "$shards + ${secs[shard]}" | bc -l)
			peak
		done
		cpu merge "$BIN" merge -q --out "$d/merged" "$d"/shard-*
		if [ "$turn" -lt 3 ]; then
			fits=$(echo "$fits + ${secs[merge]}" | bc -l)
			peak
		else
			last=${secs[merge]}
		fi
	done
	same=yes
	diff -r "$d/one" "$d/merged" >/dev/null || same=NO
	dmb=$(du -sm --apparent-size "$d/one" | awk '{print $1}')
	one=${secs[one]}
	printf '%-22s %9.1f %9.1f %6.2f %9.1f %6.2f %9.1f %6.3f %9d %9d %6.2f %s\n' "$frag $train/$eval/$eval" "$one" "$shards" \
		"$(echo "$shards / $one" | bc -l)" "$fits" "$(echo "$fits / $one" | bc -l)" "$last" "$(echo "$last / $one" | bc -l)" \
		"$smb" "$dmb" "$(echo "$smb / $dmb" | bc -l)" "$same"
	rm -rf "$d"
done
