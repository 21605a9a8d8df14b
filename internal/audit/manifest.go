package audit

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/nlsat/nlsat/internal/dataset"
)

// ForManifest returns the audit a built dataset of t records: the
// default audit of dir, its report as JSON (with the directory left out,
// so that the bytes do not depend on where the dataset is written) and
// its summary. Without all of train, validation and test it records why
// it did not run. The report names each split file by its path relative
// to dir, passed through rename (nil: as it is) when the files are
// published under other names.
func ForManifest(t Task) func(ctx context.Context, dir string, rename func(string) string) (json.RawMessage, string, error) {
	return func(ctx context.Context, dir string, rename func(string) string) (json.RawMessage, string, error) {
		for _, sp := range Splits[:requiredSplits] {
			if _, err := os.Stat(dataset.FindFile(filepath.Join(dir, "data", sp))); err != nil {
				return json.RawMessage("null"), "Not run: the audit needs train, validation and test splits.\n", nil
			}
		}
		rep, err := Run(ctx, t, dir, DefaultOptions())
		if err != nil {
			return nil, "", err
		}
		rep.relocate(dir, rename)
		data, err := json.Marshal(rep)
		return data, rep.Summary(), err
	}
}

// relocate names the directory "." and each split file by its path
// relative to dir, passed through rename (when not nil).
func (r *Report) relocate(dir string, rename func(string) string) {
	rel := func(file *string) {
		if p, err := filepath.Rel(dir, *file); err == nil {
			*file = filepath.ToSlash(p)
			if rename != nil {
				*file = rename(*file)
			}
		}
	}
	r.Dir = "."
	for i := range r.Splits {
		rel(&r.Splits[i].File)
	}
	if e := r.Pairwise; e != nil {
		e.Dir = "."
		for i := range e.Splits {
			rel(&e.Splits[i].File)
		}
		for _, p := range e.Pairs {
			p.Report.relocate(dir, rename)
		}
	}
}
