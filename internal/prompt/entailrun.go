package prompt

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nlsat/nlsat/internal/entailrec"
	"github.com/nlsat/nlsat/internal/eval"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/inputerr"
)

// EntailConfig is one run of the entailment prompts.
type EntailConfig struct {
	// In is a file of entailment records ("-" for stdin) or a dataset
	// directory, whose split Split is prompted.
	In    string
	Split string
	// Examples is the file (or dataset directory: its train split) the
	// worked examples come from; empty for In's train split when In is a
	// directory, and no few-shot prompts otherwise.
	Examples string
	// Fewshot names the records of lm-eval's few-shot demonstrations
	// (a file or a dataset directory); "" for In's validation or train
	// split (see fewshotSource), or else the worked examples.
	Fewshot  string
	Out      string
	TaskFile TaskFile // Tag, DataFiles; the rest is filled in
}

// EntailResult says what RunEntail wrote.
type EntailResult struct {
	Rows     int
	Tasks    []string
	Examples string // the file the worked examples came from, or ""
}

// RunEntail renders the entailment records of c.In into prompt rows and
// writes them with their task files (WriteEntailFiles). Every error about
// the inputs is a *inputerr.Error naming the file and line.
func RunEntail(c EntailConfig, stdin io.Reader, stdout io.Writer) (EntailResult, error) {
	var res EntailResult
	in, examples, err := c.files()
	if err != nil {
		return res, &inputerr.Error{Err: err}
	}
	var shots map[string][]*entailrec.Record
	if examples != "" {
		if shots, err = readShots(examples, stdin); err != nil {
			return res, err
		}
	}
	var rows []EntailRow
	scored := map[string]bool{}
	err = eval.EachEntail(in, stdin, func(r *entailrec.Record, where string) error {
		s := shots[r.Fragment]
		if examples != "" && s == nil {
			return fmt.Errorf("%s: no worked examples for fragment %s: %s has no record of each label of it", where, r.Fragment, examples)
		}
		if err := CheckShot(r, s); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		rows = append(rows, NewEntailRow(r, s))
		scored[instanceKey(r.Premises)] = true
		return nil
	})
	if err != nil {
		return res, &inputerr.Error{Err: err}
	}
	tf := c.TaskFile
	tf.Source, tf.Rows = filepath.Base(in), len(rows)
	if in != "-" {
		tf.Gold = tf.Path(in)
	}
	if examples != "" {
		tf.ExampleID = "one per label of the record's fragment, from " + filepath.Base(examples) + ": " + shotIDs(shots)
	}
	fewshot, err := c.fewshotRows(in, shots, scored, &tf, stdin)
	if err != nil {
		return res, err
	}
	res.Rows, res.Examples = len(rows), examples
	res.Tasks, err = WriteEntailFiles(c.Out, stdout, rows, fewshot, tf)
	return res, err
}

// fewshotRows renders the few-shot source's records (fewshotSource)
// into prompt rows as the prompted ones, leaving out those that share
// premises with a worked example or a scored record (scored, by
// instanceKey), and names their split in tf; without
// a source, the worked examples are the train split. Without either it
// is an error: lm-eval would draw demonstrations from the scored records.
func (c EntailConfig) fewshotRows(in string, shots map[string][]*entailrec.Record, scored map[string]bool, tf *TaskFile, stdin io.Reader) ([]EntailRow, error) {
	dir := ""
	if isDir(c.In) {
		dir = c.In
	}
	file, split, err := fewshotSource(in, dir, c.Fewshot)
	if err != nil {
		return nil, &inputerr.Error{Err: err}
	}
	var rows []EntailRow
	if file == "" {
		var frags []string
		for f := range shots {
			frags = append(frags, f)
		}
		slices.SortFunc(frags, fragments.CompareNames)
		for _, f := range frags {
			for _, r := range shots[f] {
				rows = append(rows, NewEntailRow(r, nil))
			}
		}
		if len(rows) == 0 {
			return nil, &inputerr.Error{Err: fmt.Errorf("%w beside %s (no validation or train split) and no worked examples", ErrNoFewshot, in)}
		}
		tf.FewshotSplit, tf.FewshotSource = FewshotTrain, "the worked examples alone"
		return rows, nil
	}
	err = eval.EachEntail(file, stdin, func(r *entailrec.Record, where string) error {
		s := shots[r.Fragment]
		if CheckShot(r, s) != nil || scored[instanceKey(r.Premises)] {
			return nil
		}
		rows = append(rows, NewEntailRow(r, s))
		return nil
	})
	if err != nil {
		return nil, &inputerr.Error{Err: fmt.Errorf("few-shot records: %w", err)}
	}
	tf.FewshotSplit, tf.FewshotSource = split, tf.Path(file)
	return rows, nil
}

// files resolves the records file and the examples file.
func (c EntailConfig) files() (in, examples string, err error) {
	in, examples = c.In, c.Examples
	if isDir(in) {
		if in, err = eval.SplitFile(c.In, c.Split); err != nil {
			return "", "", err
		}
		if examples == "" {
			examples = c.In
		}
	}
	if isDir(examples) {
		if examples, err = eval.SplitFile(examples, "train"); err != nil {
			return "", "", fmt.Errorf("worked examples: %w", err)
		}
	}
	if examples != "" && examples != "-" && sameFile(in, examples) {
		return "", "", fmt.Errorf("the worked examples would come from the prompted records %s: take them from the train split", in)
	}
	return in, examples, nil
}

func isDir(name string) bool {
	fi, err := os.Stat(name)
	return name != "" && name != "-" && err == nil && fi.IsDir()
}

func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

func readShots(name string, stdin io.Reader) (map[string][]*entailrec.Record, error) {
	var train []*entailrec.Record
	err := eval.EachEntail(name, stdin, func(r *entailrec.Record, _ string) error {
		train = append(train, r)
		return nil
	})
	if err != nil {
		return nil, &inputerr.Error{Err: fmt.Errorf("worked examples: %w", err)}
	}
	return Shots(train), nil
}

// shotIDs lists the worked examples per fragment, "S: a b c; V: d e f".
func shotIDs(shots map[string][]*entailrec.Record) string {
	var frags []string
	for f := range shots {
		frags = append(frags, f)
	}
	slices.SortFunc(frags, fragments.CompareNames)
	var parts []string
	for _, f := range frags {
		var ids []string
		for _, r := range shots[f] {
			ids = append(ids, r.ID)
		}
		parts = append(parts, f+": "+strings.Join(ids, " "))
	}
	return strings.Join(parts, "; ")
}
