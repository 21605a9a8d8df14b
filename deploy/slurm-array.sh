#!/bin/bash
# The paper preset of fragment A as 8 shards: a Slurm job array.
# Submit with `sbatch deploy/slurm-array.sh`; each task runs shard
# $SLURM_ARRAY_TASK_ID of $SLURM_ARRAY_TASK_COUNT (nlsat reads both from the
# environment) into its own directory. A task that is requeued resumes from
# its checkpoint. When every task is done, merge:
#   nlsat merge --out nlsat-A nlsat-A-shards/shard-*
#SBATCH --job-name=nlsat-split-a
#SBATCH --array=0-7
#SBATCH --cpus-per-task=2
#SBATCH --mem=1G
#SBATCH --time=02:00:00
#SBATCH --requeue
set -euo pipefail
exec nlsat split --fragment A --preset paper --seed 1 -j "${SLURM_CPUS_PER_TASK:-0}" \
	--out "nlsat-A-shards/shard-${SLURM_ARRAY_TASK_ID}"
