package eval

import (
	"fmt"
	"path/filepath"

	"github.com/nlsat/nlsat/internal/dataset"
)

// SplitFile returns the file of the named split of a dataset directory
// (DIR/data/NAME.jsonl, or .jsonl.gz, .jsonl.zst, .parquet; or DIR/NAME.*
// without a data directory), or an error listing the splits there are.
func SplitFile(dir, split string) (string, error) {
	files, err := splitFiles(dir)
	if err != nil {
		return "", err
	}
	var names []string
	for _, f := range files {
		name := dataset.TrimExt(filepath.Base(f))
		if name == split {
			return f, nil
		}
		names = append(names, name)
	}
	return "", fmt.Errorf("%s: no split %q (it has %v)", dir, split, names)
}
