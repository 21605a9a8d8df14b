#!/bin/bash
# An nlsat build through a Slurm job array, then its merge. Usage:
#
#   deploy/slurm-build.sh N SHARDS OUT COMMAND [ARGS...]
#
# for example
#
#   deploy/slurm-build.sh 8 nlsat-A-shards nlsat-A split --fragment A --preset paper --seed 1
#
# submits N tasks of deploy/slurm-array.sh (shard i into SHARDS/shard-i)
# and a merge job into OUT that starts when every task has ended
# (afterany: a task that fails or is requeued does not leave the merge
# pending forever, and a requeued task is waited for). If a task failed for
# good, the merge fails naming every shard it lacks; submit those tasks
# again (sbatch --array=3,5 deploy/slurm-array.sh N SHARDS COMMAND ARGS...)
# and run the merge line this script prints. Extra sbatch options go in
# $SBATCH_ARGS (for example "--partition=long --cpus-per-task=8").
set -euo pipefail
if [ "$#" -lt 4 ]; then
	echo "usage: $0 N SHARDS OUT COMMAND [ARGS...]" >&2
	exit 2
fi
n=$1 shards=$2 out=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
nlsat=${NLSAT:-nlsat}
# shellcheck disable=SC2086
array=$(sbatch --parsable ${SBATCH_ARGS:-} --array="0-$((n - 1))" "$here/slurm-array.sh" "$n" "$shards" "$@")
array=${array%%;*}
merge="$nlsat merge --out $out $shards/shard-*"
# shellcheck disable=SC2086
job=$(sbatch --parsable ${SBATCH_ARGS:-} --job-name=nlsat-merge --dependency="afterany:$array" \
	--open-mode=append --output="nlsat-merge-%j.log" --wrap "$merge")
job=${job%%;*}
echo "array $array ($n shards into $shards), merge $job into $out"
echo "merge again after re-running a shard: $merge"
