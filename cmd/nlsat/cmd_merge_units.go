package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nlsat/nlsat/internal/audit"
	"github.com/nlsat/nlsat/internal/job"
	"github.com/nlsat/nlsat/internal/split"
	"github.com/nlsat/nlsat/internal/split/units"
	"github.com/nlsat/nlsat/internal/task"
)

// mergeUnits merges the shards of a balanced build of t.
func mergeUnits(ctx context.Context, t *task.Task, o *mergeOptions, src *job.Shards, s streams, start time.Time) error {
	m, err := units.Merge(ctx, t.Units, src, units.Options{
		Dir:     o.out,
		Force:   o.force,
		Toolkit: toolkit(),
		Output:  o.records.spec(),
		Audit:   audit.ForManifest(t.Audit),
	})
	var short *units.ShortError
	switch {
	case errors.Is(err, split.ErrAlreadyBuilt):
		if !o.quiet {
			fmt.Fprintf(s.Err, "nlsat: %s already holds this dataset, checksums intact; nothing to do\n", o.out)
		}
		return nil
	case errors.As(err, &short):
		return fmt.Errorf("%w; run the shards again with a higher --oversample (they used %g)", err, src.Manifest.Oversample)
	case err != nil:
		return err
	}
	if !o.quiet {
		fmt.Fprintf(s.Err, "nlsat: merged %d shards into %s in %s: %s\n", len(src.Dirs), o.out, time.Since(start).Round(time.Millisecond), m.Summary())
	}
	return nil
}
