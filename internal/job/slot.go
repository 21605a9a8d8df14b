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
// array SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_MAX
// and SLURM_ARRAY_TASK_COUNT. Without --shard-count a whole array (ids
// MIN..MAX, one task each) is the shards in order; with it, the task id
// is the shard index, so that one task can be submitted again and
// stepped arrays work. It reports whether the run is sharded at all.
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
	s.From = "$SLURM_ARRAY_TASK_ID"
	if countSet {
		// With the count given, the task id is the shard index: one task
		// submitted again (--array=3), or a stepped or partial array
		// (--array=0-6:2), computes the shards its ids name.
		s.Index = n
		return true, true, nil
	}
	lo, _, err := atoi("SLURM_ARRAY_TASK_MIN")
	if err != nil {
		return false, countSet, err
	}
	hi, hiSet, err := atoi("SLURM_ARRAY_TASK_MAX")
	if err != nil {
		return false, countSet, err
	}
	c, ok, err := atoi("SLURM_ARRAY_TASK_COUNT")
	if err != nil {
		return true, false, err
	}
	switch {
	case !ok:
		return true, false, fmt.Errorf("$SLURM_ARRAY_TASK_ID is set but $SLURM_ARRAY_TASK_COUNT is not: give --shard-count")
	case hiSet && hi-lo+1 != c:
		return true, false, fmt.Errorf("this task belongs to a stepped or partial array (ids %d-%d, %d tasks): give --shard-count, and the task id is the shard index", lo, hi, c)
	case c == 1 && lo > 0:
		return true, false, fmt.Errorf("this is one task (id %d) of an array submitted alone: give --shard-count, and the task id is the shard index", n)
	}
	// A whole array, whatever its first id, is the shards in order.
	s.Index, s.Count = n-lo, c
	return true, true, nil
}
