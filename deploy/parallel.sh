#!/bin/bash
# An nlsat build as N shards on one workstation with GNU parallel (one
# shard per core at a time), and the merge. Usage:
#
#   deploy/parallel.sh N SHARDS OUT COMMAND [ARGS...]
#
# for example
#
#   deploy/parallel.sh 8 nlsat-A-shards nlsat-A split --fragment A --preset paper --seed 1
#
# Shard i goes to SHARDS/shard-i. A split's shards and its merge take
# three turns (pilots, residual pilots, candidates; see
# deploy/slurm-build.sh), so the shards and the merge run three times; a
# build that needs fewer turns finds nothing to do in the later ones. Run
# the same line again after an interruption and every shard and the merge
# resume from their checkpoints. nlsat is looked up on PATH, or given as
# $NLSAT.
set -euo pipefail
if [ "$#" -lt 4 ]; then
	echo "usage: $0 N SHARDS OUT COMMAND [ARGS...]" >&2
	exit 2
fi
n=$1 shards=$2 out=$3
shift 3
nlsat=${NLSAT:-nlsat}
mkdir -p "$shards"
for _ in 1 2 3; do
	seq 0 $((n - 1)) | parallel -j "$(nproc)" "$nlsat" "$@" -j 1 -q \
		--shard-index {} --shard-count "$n" --out "$shards/shard-{}"
	"$nlsat" merge --out "$out" "$shards"/shard-*
done
