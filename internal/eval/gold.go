package eval

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
)

// Pair roles of a minimal pair's twins.
const (
	RoleOriginal = "original"
	RoleEdited   = "edited"
)

// Gold is what scoring needs of one labelled record.
type Gold struct {
	ID       string
	Split    string // the split file's name without .jsonl; empty for a single file
	Fragment string
	N1, N2   int
	M        int
	Label    int // dataset.LabelSat or dataset.LabelUnsat
	// MUSSize is the length of certificate.mus (0 when the record carries
	// none, and for sat records); ModelSize is certificate.model_size.
	MUSSize, ModelSize int
	// PairID and PairRole are the minimal-pair keys of nlsat pairs, empty
	// for records that are not part of a pair.
	PairID, PairRole string
	// Where is "file:line", for messages.
	Where string
	// text is a hash of the record's text (see textSum); sentences are
	// its sentences, for checking chains of thought.
	text      uint64
	sentences []string
}

// N is the number of predicates n = n1 + n2 that the paper's Figure 3 and
// Table 3 break accuracy down by.
func (g *Gold) N() int { return g.N1 + g.N2 }

// goldLine is a record with the optional keys that later commands add.
type goldLine struct {
	dataset.Record
	PairID   *string `json:"pair_id"`
	PairRole *string `json:"pair_role"`
}

// splitOrder ranks the split files nlsat split writes; other names follow,
// alphabetically.
var splitOrder = []string{"train", "validation", "test", "generalisation", "zero-shot"}

func compareSplits(x, y string) int {
	rank := func(s string) int {
		if i := slices.Index(splitOrder, s); i >= 0 {
			return i
		}
		return len(splitOrder)
	}
	return cmp.Or(cmp.Compare(rank(x), rank(y)), strings.Compare(x, y))
}

// ReadGold reads the gold records of path: a JSONL file, or a dataset
// directory whose split files (*.jsonl) are in path/data, or in path itself
// when it has no data directory. Records from a directory carry the split
// file's name. Every record must be valid and labelled, and ids must be
// unique across all files; errors name the file and line.
func ReadGold(path string) ([]Gold, error) {
	var gold []Gold
	seen := ids{}
	err := eachGoldFile(path, func(name, split string) error {
		var err error
		gold, err = readGoldFile(name, split, gold, seen)
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(gold) == 0 {
		return nil, fmt.Errorf("%s: no gold records", path)
	}
	return gold, nil
}

// eachGoldFile calls read with each records file of a gold path, as
// ReadGold and ReadEntailGold take it, and the file's split name: none for
// a single file, else the split file's name without its extension, the
// files in split order.
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
		return compareSplits(dataset.TrimExt(filepath.Base(a)), dataset.TrimExt(filepath.Base(b)))
	})
	return files, nil
}

func readGoldFile(name, split string, gold []Gold, seen ids) ([]Gold, error) {
	f, err := dataset.OpenFile(name)
	if err != nil {
		return nil, fmt.Errorf("cannot read gold records: %w", err)
	}
	defer f.Close()
	err = eachLine(f, name, func(b []byte, where string) error {
		g, err := decodeGold(b, where)
		if err != nil {
			return err
		}
		if err := seen.add(g.ID, where); err != nil {
			return err
		}
		g.Split = split
		gold = append(gold, g)
		return nil
	})
	return gold, err
}

func decodeGold(b []byte, where string) (Gold, error) {
	var r goldLine
	if err := json.Unmarshal(b, &r); err != nil {
		return Gold{}, fmt.Errorf("%s: not a record: %w", where, err)
	}
	if err := r.Validate(); err != nil {
		return Gold{}, fmt.Errorf("%s: %w", where, err)
	}
	if r.Label == dataset.LabelAbsent {
		return Gold{}, fmt.Errorf("%s: record %s has no label, so it cannot be gold", where, r.ID)
	}
	g := Gold{ID: r.ID, Fragment: r.Fragment, N1: r.N1, N2: r.N2, M: r.M, Label: r.Label,
		ModelSize: r.Certificate.ModelSize, Where: where, text: textSum(r.Text)}
	if r.Text == "" {
		g.text = textSum(strings.Join(r.Sentences, " "))
	}
	if g.sentences = r.Sentences; len(g.sentences) == 0 {
		g.sentences = fragments.SplitText(r.Text)
	}
	if r.Label == dataset.LabelUnsat {
		g.MUSSize = len(r.Certificate.MUS)
	}
	id, role := deref(r.PairID), deref(r.PairRole)
	if id != "" || role != "" {
		if id == "" {
			return Gold{}, fmt.Errorf("%s: record %s has a pair_role but no pair_id", where, r.ID)
		}
		if role != RoleOriginal && role != RoleEdited {
			return Gold{}, fmt.Errorf("%s: record %s: pair_role %q is not %s or %s", where, r.ID, role, RoleOriginal, RoleEdited)
		}
		g.PairID, g.PairRole = id, role
	}
	return g, nil
}

// eachLine calls fn with every non-blank line of r and "name:line".
func eachLine(r io.Reader, name string, fn func(b []byte, where string) error) error {
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

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
