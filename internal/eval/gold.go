package eval

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nlsat/nlsat/internal/dataset"
)

// Pair roles of a minimal pair's twins.
const (
	RoleOriginal = "original"
	RoleEdited   = "edited"
)

// Gold is what scoring needs of one labelled record, as its task reads it.
type Gold struct {
	ID    string
	Split string // the split file's name without its extension; empty for a single file
	// Label is the record's label, an index of its task's labels.
	Label int
	// Groups holds the record's group in each of its task's breakdowns
	// (Spec.Breakdowns), one value per part; nil leaves it out of one.
	Groups [][]string
	// Info is what the per-record file says of the record besides its id
	// and split: a value whose JSON object's keys follow them
	// (its fragment, ...); nil for none.
	Info any
	// Text is TextSum of the record's text as a prediction carries it
	// (Spec.TextKeys, joined by line breaks).
	Text uint64
	// PairID and PairRole are the minimal-pair keys of nlsat pairs, empty
	// for records that are not part of a pair.
	PairID, PairRole string
	// Sentences are the record's sentences, for checking chains of
	// thought (Spec.Chains).
	Sentences []string
	// Where is "file:line", for messages.
	Where string

	binary int // the binary label, with Spec.Binary
}

// splitOrder ranks the split files nlsat split writes; other names follow,
// alphabetically.
var splitOrder = []string{"train", "validation", "test", "generalisation", "zero-shot"}

// CompareSplits orders split names: those nlsat split writes, in
// splitOrder, then the others alphabetically.
func CompareSplits(x, y string) int {
	rank := func(s string) int {
		if i := slices.Index(splitOrder, s); i >= 0 {
			return i
		}
		return len(splitOrder)
	}
	return cmp.Or(cmp.Compare(rank(x), rank(y)), strings.Compare(x, y))
}

// ReadGold reads the gold records of path with t: a records file, or a
// dataset directory whose split files (*.jsonl, ...) are in path/data, or
// in path itself when it has no data directory. Records from a directory
// carry the split file's name. Ids must be unique across all files;
// errors name the file and line.
func ReadGold(path string, t Task) ([]Gold, error) {
	spec := t.Spec()
	var gold []Gold
	seen := ids{}
	err := eachGoldFile(path, func(name, split string) error {
		return t.ReadGold(name, split, func(g Gold) error {
			if err := seen.add(g.ID, g.Where); err != nil {
				return err
			}
			g.Split = split
			g.binary = g.Label
			if spec.Binary != nil {
				g.binary = spec.Binary.Of[g.Label]
			}
			gold = append(gold, g)
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	if len(gold) == 0 {
		return nil, fmt.Errorf("%s: no gold records", path)
	}
	return gold, nil
}

// eachGoldFile calls read with each records file of a gold path and the
// file's split name: none for a single file, else the split file's name
// without its extension, the files in split order.
func eachGoldFile(path string, read func(name, split string) error) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("cannot read gold records: %w", err)
	}
	if !fi.IsDir() {
		return read(path, "")
	}
	files, err := splitFiles(path)
	if err != nil {
		return err
	}
	for _, f := range files {
		if err := read(f, dataset.TrimExt(filepath.Base(f))); err != nil {
			return err
		}
	}
	return nil
}

// ids are the gold ids read so far, each with its "file:line".
type ids map[string]string

// add notes id at where; an id read before is an error, across files too.
func (s ids) add(id, where string) error {
	if first, dup := s[id]; dup {
		return fmt.Errorf("%s: duplicate id %s (first at %s)", where, id, first)
	}
	s[id] = where
	return nil
}

// splitFiles lists a dataset directory's split files in split order.
func splitFiles(dir string) ([]string, error) {
	data := filepath.Join(dir, "data")
	if fi, err := os.Stat(data); err == nil && fi.IsDir() {
		dir = data
	}
	all, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		return nil, err
	}
	var files []string
	for _, f := range all {
		if _, ok := dataset.FormatOf(f); ok {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no split files (*.jsonl, *.jsonl.gz, *.jsonl.zst or *.parquet)", dir)
	}
	slices.SortFunc(files, func(a, b string) int {
		return CompareSplits(dataset.TrimExt(filepath.Base(a)), dataset.TrimExt(filepath.Base(b)))
	})
	return files, nil
}

// EachLine calls fn with every non-blank line of r and "name:line".
func EachLine(r io.Reader, name string, fn func(b []byte, where string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		if err := fn(b, fmt.Sprintf("%s:%d", name, line)); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	return nil
}
