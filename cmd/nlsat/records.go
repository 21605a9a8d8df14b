package main

import (
	"context"
	"io"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/pipeline"
	"github.com/nlsat/nlsat/internal/progress"
	"github.com/nlsat/nlsat/internal/solver"
)

// mapRecords is the run of a command that reads n records and writes one
// output file (label, pairs, distract): the workers compute record i's
// result with do, and emit, bound to the output, writes the results in
// input order (with the name of the backends that labelled them) and
// returns the status the progress counts. The output
// (stdout for "-") is written atomically and only when every record is
// done. It returns the name of the backends.
func mapRecords[R any](ctx context.Context, o *solverOptions, s streams, what string, n int, out string,
	do func(ctx context.Context, b solver.Backend, i int) (R, error),
	emit func(w io.Writer, solverName string) func(i int, r R) (solver.Status, error)) (string, error) {
	newBackend, name, err := o.backends()
	if err != nil {
		return "", err
	}
	f, err := dataset.CreateRecords(out, s.Out, o.records.spec())
	if err != nil {
		return "", usageError{err}
	}
	defer f.Abort()
	prog := progress.New(s.Err, what, n, o.quiet)
	put := emit(f, name)
	err = pipeline.Run(ctx, pipeline.Config[solver.Backend, R]{
		Workers: o.jobs,
		Limit:   n,
		New:     newBackend,
		Close:   solver.Close,
		Do:      do,
		Emit: func(i int, r R) (bool, error) {
			st, err := put(i, r)
			prog.Add(int(st), true)
			return false, err
		},
	})
	return name, commitRun(ctx, prog, f, err)
}
