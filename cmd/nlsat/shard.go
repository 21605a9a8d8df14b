package main

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/job"
	"github.com/nlsat/nlsat/internal/version"
)

// toolkit names this program, its version and commit, for the manifests
// of shards and datasets.
func toolkit() job.Toolkit {
	return job.Toolkit{Name: "nlsat", Version: version.Version(), Commit: version.Commit()}
}

// shardOptions are the flags of a command that can run as one shard of
// an array job.
type shardOptions struct {
	index, count int
	oversample   float64
	slot         job.Slot
}

const shardHelp = `Shards. --shard-index i --shard-count N runs shard i of N (an array job:
Kubernetes Indexed Jobs set JOB_COMPLETION_INDEX, Slurm job arrays set
SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT, and these are the defaults
when the flags are not given; with --shard-count, a Slurm task's id is its
shard index, so one task can be submitted again alone and stepped arrays
work). Each instance's randomness depends only on the master seed and its
index, so nlsat merge turns the N shard outputs into exactly the bytes of
one unsharded run. A shard can be re-run alone.`

func (o *shardOptions) addFlags(cmd *cobra.Command, oversample bool) {
	cmd.Flags().IntVar(&o.index, "shard-index", -1, "run shard i of --shard-count (default $JOB_COMPLETION_INDEX, or $SLURM_ARRAY_TASK_ID: the task id itself with --shard-count, its place in the array without)")
	cmd.Flags().IntVar(&o.count, "shard-count", 0, "number of shards (default $SLURM_ARRAY_TASK_COUNT for a whole array; required under Kubernetes and for a stepped, partial or resubmitted array)")
	if oversample {
		cmd.Flags().Float64Var(&o.oversample, "oversample", 1.2, "with shards: margin on the candidates drawn per stratum (enough on average for its rarer label, plus four standard deviations)")
	}
}

// resolve finds the shard slot from the flags or, where they are absent,
// the environment (getenv; nil for the process's), and reports whether
// the run is sharded.
func (o *shardOptions) resolve(cmd *cobra.Command, getenv func(string) string) (bool, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	slot, sharded, err := job.ResolveSlot(o.index, o.count, cmd.Flags().Changed("shard-index"), cmd.Flags().Changed("shard-count"), getenv)
	if err != nil {
		return false, usageError{err}
	}
	if o.oversample < 0 {
		return false, usagef("--oversample must be positive")
	}
	o.slot = slot
	return sharded, nil
}
