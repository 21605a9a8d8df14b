package main

import (
	"cmp"
	"context"

	"github.com/nlsat/nlsat/internal/job"
	"github.com/nlsat/nlsat/internal/progress"
)

// lockOut takes the lock of the output out (see job.LockOutput) for the
// rest of the run; release gives it back. Standard output ("-" or "")
// takes none. dir says whether out is a directory the run creates, with
// its parents.
func lockOut(out string, dir bool) (release func(), err error) {
	if out == "-" || out == "" {
		return func() {}, nil
	}
	l, err := job.LockOutput(out, dir)
	if err != nil {
		return nil, err
	}
	return l.Release, nil
}

// commitRun ends a run that writes one output file: it finishes the
// progress bar and commits out, unless the run failed (err) or was
// interrupted, in which case out is left for its deferred Abort.
func commitRun(ctx context.Context, prog *progress.Bar, out interface{ Commit() error }, err error) error {
	prog.Finish()
	if err = cmp.Or(err, ctx.Err()); err != nil {
		return err
	}
	return out.Commit()
}
