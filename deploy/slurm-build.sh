#!/bin/bash
# An nlsat build through Slurm job arrays and merges that take turns. Usage:
#
#   deploy/slurm-build.sh N SHARDS OUT COMMAND [ARGS...]
#
# for example
#
#   deploy/slurm-build.sh 8 nlsat-A-shards nlsat-A split --fragment A --preset paper --seed 1
#
# A split's shards and its merge take three turns: the shards draw the
# pilots and the merge fits the balance models to them; the shards draw
# the residual pilots with those models and the merge fits the residual
# stage; the shards draw, decide and thin the candidates and the merge
# selects and writes the dataset. So this script submits three rounds of
# N tasks of deploy/slurm-array.sh (shard i into SHARDS/shard-i) and of a
# merge into OUT, each round waiting for the one before (afterany: a task
# that fails or is requeued does not leave a job pending forever, and a
# requeued task is waited for). A build whose shards finish in fewer
# turns (generate, phase-sweep, a split with --balance strata) finds
# nothing left to do in the later rounds. If a task failed for good, the
# merge after it fails naming every shard it lacks: submit this same
# command again, and every shard and merge goes on from where it stopped.
# Extra sbatch options go in $SBATCH_ARGS (for example
# "--partition=long --cpus-per-task=8").
set -euo pipefail
if [ "$#" -lt 4 ]; then
	echo "usage: $0 N SHARDS OUT COMMAND [ARGS...]" >&2
	exit 2
fi
n=$1 shards=$2 out=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
nlsat=${NLSAT:-nlsat}
merge="$nlsat merge --out $out $shards/shard-*"
arrays=() merges=() after=()
for _ in 1 2 3; do
	# shellcheck disable=SC2086
	array=$(sbatch --parsable ${SBATCH_ARGS:-} "${after[@]}" --array="0-$((n - 1))" "$here/slurm-array.sh" "$n" "$shards" "$@")
	array=${array%%;*}
	# shellcheck disable=SC2086
	job=$(sbatch --parsable ${SBATCH_ARGS:-} --job-name=nlsat-merge --dependency="afterany:$array" \
		--open-mode=append --output="nlsat-merge-%j.log" --wrap "$merge")
	job=${job%%;*}
	arrays+=("$array") merges+=("$job") after=(--dependency="afterany:$job")
done
echo "array ${arrays[*]} ($n shards into $shards), merge ${merges[*]} into $out"
echo "after a failed task, submit the same command again; or run its shard (sbatch --array=I $here/slurm-array.sh $n $shards $*) and merge: $merge"
