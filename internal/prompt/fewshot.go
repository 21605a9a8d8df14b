package prompt

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/eval"
)

// The few-shot source. lm-evaluation-harness draws the demonstrations
// of --num_fewshot k from a task's fewshot_split, and without one from
// the very split it scores. So every task names a split of other records
// for them, written beside the prompts (FewshotPath): the prompts of the
// validation split of the prompted records' dataset, or of its train
// split when it has no validation split, or of a file the caller names;
// and where there is none of these, the worked examples alone.

// ErrNoFewshot is the error of a run that finds no records for the
// few-shot split: no split beside the prompted records, none named and
// no worked examples.
var ErrNoFewshot = errors.New("no records for lm-eval's few-shot demonstrations")

// Few-shot split names, as the task files declare them.
const (
	FewshotValidation = "validation"
	FewshotTrain      = "train"
)

// FewshotPath is the file of few-shot prompt rows written beside the
// prompt file out: out's name with .fewshot before its extension.
func FewshotPath(out string) string {
	ext := filepath.Ext(out)
	return strings.TrimSuffix(out, ext) + ".fewshot" + cmp.Or(ext, ".jsonl")
}

// fewshotSource returns the records file the few-shot rows come from,
// and the split name the tasks declare for it: explicit if given (train
// if it is named so, else validation); else the validation split of the
// dataset of in (a dataset directory, or a split file in one), else its
// train split; else "" (none). A source that is the prompted file is an
// error.
func fewshotSource(in, dir, explicit string) (file, split string, err error) {
	switch {
	case explicit == "-":
		return "", "", fmt.Errorf("the few-shot records must be a file, not stdin")
	case explicit != "":
		if isDir(explicit) {
			for _, s := range []string{FewshotValidation, FewshotTrain} {
				if f, err := eval.SplitFile(explicit, s); err == nil {
					return checkFewshot(in, f, s)
				}
			}
			return "", "", fmt.Errorf("few-shot records %s: a directory without a validation or train split", explicit)
		}
		split := FewshotValidation
		if dataset.TrimExt(filepath.Base(explicit)) == FewshotTrain {
			split = FewshotTrain
		}
		return checkFewshot(in, explicit, split)
	case in == "" || in == "-":
		return "", "", nil
	}
	for _, s := range []string{FewshotValidation, FewshotTrain} {
		var f string
		if dir != "" {
			if f, err = eval.SplitFile(dir, s); err != nil {
				continue
			}
		} else if f = dataset.FindFile(filepath.Join(filepath.Dir(in), s)); !exists(f) {
			continue
		}
		if !sameFile(in, f) {
			return f, s, nil
		}
	}
	return "", "", nil
}

func checkFewshot(in, file, split string) (string, string, error) {
	if in != "-" && sameFile(in, file) {
		return "", "", fmt.Errorf("few-shot records %s: the demonstrations would come from the prompted records; take them from another split", file)
	}
	return file, split, nil
}

func exists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}
