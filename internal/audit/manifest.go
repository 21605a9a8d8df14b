package audit

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/nlsat/nlsat/internal/dataset"
)

// ForManifest is the audit a built dataset records: the default audit of
// dir, its report as JSON (with the directory left out, so that the
// bytes do not depend on where the dataset is written) and its summary.
// Without all of train, validation and test it records why it did not
// run. The report names each split file by its path relative to dir,
// passed through rename (nil: as it is) when the files are published
// under other names.
func ForManifest(ctx context.Context, dir string, rename func(string) string) (json.RawMessage, string, error) {
	for _, sp := range Splits[:requiredSplits] {
		if _, err := os.Stat(dataset.FindFile(filepath.Join(dir, "data", sp))); err != nil {
			return json.RawMessage("null"), "Not run: the audit needs train, validation and test splits.\n", nil
		}
	}
	rep, err := Run(ctx, dir, DefaultOptions())
	if err != nil {
		return nil, "", err
	}
	rep.Dir = "."
	for i := range rep.Splits {
		if rel, err := filepath.Rel(dir, rep.Splits[i].File); err == nil {
			rep.Splits[i].File = filepath.ToSlash(rel)
			if rename != nil {
				rep.Splits[i].File = rename(rep.Splits[i].File)
			}
		}
	}
	data, err := json.Marshal(rep)
	return data, rep.Summary(), err
}
