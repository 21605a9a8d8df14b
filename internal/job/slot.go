package job

import (
	"fmt"
	"strconv"
)

// Slot says which shard of an array job a run is: shard Index of Count,
// and where that came from (for the log).
type Slot struct {
	Index, Count int
	From         string
}

// String describes the slot, e.g. "shard 2 of 8 (from $SLURM_ARRAY_TASK_ID)".
func (s Slot) String() string {
	return fmt.Sprintf("shard %d of %d (from %s)", s.Index, s.Count, s.From)
}

// ResolveSlot finds the shard slot of a run from the --shard-index and
// --shard-count flags (index and count, set when given) and, where they
// are absent, the environment of an array job: a Kubernetes Indexed Job
// sets JOB_COMPLETION_INDEX (the count must then be given), a Slurm job
// array SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN and
// SLURM_ARRAY_TASK_COUNT. It reports whether the run is sharded at all.
func ResolveSlot(index, count int, indexSet, countSet bool, getenv func(string) string) (Slot, bool, error) {
	s := Slot{Index: index, Count: count, From: "flags"}
	atoi := func(name string) (int, bool, error) {
		v := getenv(name)
		if v == "" {
			return 0, false, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return 0, false, fmt.Errorf("$%s = %q is not a shard number", name, v)
		}
		return n, true, nil
	}
	if !indexSet {
		var err error
		if indexSet, countSet, err = s.fromEnv(countSet, atoi); err != nil {
			return s, false, err
		}
	}
	switch {
	case !indexSet && !countSet:
		return s, false, nil
	case !indexSet || !countSet:
		return s, false, fmt.Errorf("--shard-index and --shard-count go together")
	case s.Count < 1 || s.Index < 0 || s.Index >= s.Count:
		return s, false, fmt.Errorf("shard %d of %d: the index must lie in 0..%d", s.Index, s.Count, s.Count-1)
	}
	return s, true, nil
}

// fromEnv fills the index (and the count, under Slurm) from the
// environment and reports which of the two are now set.
func (s *Slot) fromEnv(countSet bool, atoi func(string) (int, bool, error)) (indexSet, _ bool, err error) {
	if n, ok, err := atoi("JOB_COMPLETION_INDEX"); err != nil || ok {
		if ok && !countSet {
			err = fmt.Errorf("$JOB_COMPLETION_INDEX is set (a Kubernetes Indexed Job): give --shard-count, equal to the Job's completions")
		}
		s.Index, s.From = n, "$JOB_COMPLETION_INDEX"
		return ok, countSet, err
	}
	n, ok, err := atoi("SLURM_ARRAY_TASK_ID")
	if err != nil || !ok {
		return false, countSet, err
	}
	lo, _, err := atoi("SLURM_ARRAY_TASK_MIN")
	if err != nil {
		return false, countSet, err
	}
	s.Index, s.From = n-lo, "$SLURM_ARRAY_TASK_ID"
	if !countSet {
		c, ok, err := atoi("SLURM_ARRAY_TASK_COUNT")
		if err != nil {
			return true, false, err
		}
		if !ok {
			return true, false, fmt.Errorf("$SLURM_ARRAY_TASK_ID is set but $SLURM_ARRAY_TASK_COUNT is not: give --shard-count")
		}
		s.Count = c
	}
	return true, true, nil
}
