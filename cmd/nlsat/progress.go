package main

import (
	"cmp"
	"context"

	"github.com/nlsat/nlsat/internal/progress"
)

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
