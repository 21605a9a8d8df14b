package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/spf13/cobra"
)

// shardOptions are the flags of a command that can run as one shard of
// an array job.
type shardOptions struct {
	index, count int
	oversample   float64
	// from says where index and count came from, for the log line.
	from string
}

const shardHelp = `Shards. --shard-index i --shard-count N runs shard i of N (an array job:
Kubernetes Indexed Jobs set JOB_COMPLETION_INDEX, Slurm job arrays set
SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT, and these are the defaults
when the flags are not given). Each instance's randomness depends only on
the master seed and its index, so nlsat merge turns the N shard outputs
into exactly the bytes of one unsharded run. A shard can be re-run alone.`

func (o *shardOptions) addFlags(cmd *cobra.Command, oversample bool) {
	cmd.Flags().IntVar(&o.index, "shard-index", -1, "run shard i of --shard-count (default $JOB_COMPLETION_INDEX or $SLURM_ARRAY_TASK_ID - $SLURM_ARRAY_TASK_MIN)")
	cmd.Flags().IntVar(&o.count, "shard-count", 0, "number of shards (default $SLURM_ARRAY_TASK_COUNT; required under Kubernetes)")
	if oversample {
		cmd.Flags().Float64Var(&o.oversample, "oversample", 1.2, "with shards: margin on the candidates drawn per stratum (enough on average for its rarer label, plus four standard deviations)")
	}
}

// resolve fills index and count from the environment where the flags are
// absent and reports whether the run is sharded.
func (o *shardOptions) resolve(cmd *cobra.Command, getenv func(string) string) (bool, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	atoi := func(name string) (int, bool, error) {
		v := getenv(name)
		if v == "" {
			return 0, false, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return 0, false, usagef("$%s = %q is not a shard number", name, v)
		}
		return n, true, nil
	}
	indexSet, countSet := cmd.Flags().Changed("shard-index"), cmd.Flags().Changed("shard-count")
	o.from = "flags"
	if !indexSet {
		if n, ok, err := atoi("JOB_COMPLETION_INDEX"); err != nil {
			return false, err
		} else if ok {
			o.index, indexSet, o.from = n, true, "$JOB_COMPLETION_INDEX"
			if !countSet {
				return false, usagef("$JOB_COMPLETION_INDEX is set (a Kubernetes Indexed Job): give --shard-count, equal to the Job's completions")
			}
		} else if n, ok, err := atoi("SLURM_ARRAY_TASK_ID"); err != nil {
			return false, err
		} else if ok {
			lo, _, err := atoi("SLURM_ARRAY_TASK_MIN")
			if err != nil {
				return false, err
			}
			o.index, indexSet, o.from = n-lo, true, "$SLURM_ARRAY_TASK_ID"
			if !countSet {
				c, ok, err := atoi("SLURM_ARRAY_TASK_COUNT")
				if err != nil {
					return false, err
				}
				if !ok {
					return false, usagef("$SLURM_ARRAY_TASK_ID is set but $SLURM_ARRAY_TASK_COUNT is not: give --shard-count")
				}
				o.count, countSet = c, true
			}
		}
	}
	switch {
	case !indexSet && !countSet:
		return false, nil
	case !indexSet || !countSet:
		return false, usagef("--shard-index and --shard-count go together")
	case o.count < 1 || o.index < 0 || o.index >= o.count:
		return false, usagef("shard %d of %d: the index must lie in 0..%d", o.index, o.count, o.count-1)
	case o.oversample < 0:
		return false, usagef("--oversample must be positive")
	}
	return true, nil
}

func (o *shardOptions) String() string {
	return fmt.Sprintf("shard %d of %d (from %s)", o.index, o.count, o.from)
}
