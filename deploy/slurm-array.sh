#!/bin/bash
# One shard of an nlsat build, as a task of a Slurm job array. Usage:
#
#   sbatch --array=0-7 deploy/slurm-array.sh N SHARDS COMMAND [ARGS...]
#
# Task i runs `nlsat COMMAND ARGS --shard-index i --shard-count N
# --out SHARDS/shard-i -j CPUS`: the array's task ids are the shard
# indices, so one failed task is submitted again alone
# (sbatch --array=3 deploy/slurm-array.sh N SHARDS COMMAND ARGS...) and
# stepped or partial arrays compute the shards their ids name. A task that
# is requeued resumes from its checkpoint. deploy/slurm-build.sh submits
# the array and the merge together.
#
# nlsat is looked up on PATH (`make install` puts it in /usr/local/bin),
# or given as $NLSAT. Logs append, so a requeued task keeps its history.
#SBATCH --job-name=nlsat-shard
#SBATCH --cpus-per-task=2
#SBATCH --mem=1G
#SBATCH --time=02:00:00
#SBATCH --requeue
#SBATCH --open-mode=append
#SBATCH --output=nlsat-shard-%A_%a.log
set -euo pipefail
if [ "$#" -lt 3 ]; then
	echo "usage: sbatch --array=0-(N-1) $0 N SHARDS COMMAND [ARGS...]" >&2
	exit 2
fi
n=$1 shards=$2
shift 2
i=${SLURM_ARRAY_TASK_ID:?not a task of a Slurm job array}
mkdir -p "$shards"
exec "${NLSAT:-nlsat}" "$@" -j "${SLURM_CPUS_PER_TASK:-1}" \
	--shard-index "$i" --shard-count "$n" --out "$shards/shard-$i"
