package dataset

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/inputerr"
	"github.com/nlsat/nlsat/internal/solver"
)

// EachRecord reads a JSONL file of records (stdin for "-") and calls fn
// on each in order, with "file:line" for messages. Every record must pass
// Record.Validate; a bad or missing file, a line that is not a record, an
// invalid record and a file without records are InputErrors naming the
// file and line. fn's errors are returned as they are.
func EachRecord(name string, stdin io.Reader, fn func(r *Record, where string) error) error {
	display, r, closer, err := openInput(name, stdin, "records")
	if err != nil {
		return err
	}
	defer closer()
	dec := NewDecoder(r, display)
	n := 0
	for {
		rec, err := dec.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return &inputerr.Error{Err: err}
		}
		where := fmt.Sprintf("%s:%d", display, dec.Line())
		if err := rec.Validate(); err != nil {
			return inputerr.Errorf("%s: %w", where, err)
		}
		if err := fn(rec, where); err != nil {
			return err
		}
		n++
	}
	if n == 0 {
		return inputerr.Errorf("%s: no records", display)
	}
	return nil
}

// openInput opens name for reading (stdin for "-"), in any format (see
// NewReader), and returns the name to show in messages.
func openInput(name string, stdin io.Reader, what string) (string, io.Reader, func(), error) {
	if name == "-" {
		r, err := NewReader(stdin, "stdin")
		if err != nil {
			return "", nil, nil, err
		}
		return "stdin", r, func() { r.Close() }, nil
	}
	r, err := OpenFile(name)
	if err != nil {
		if ie := (*inputerr.Error)(nil); errors.As(err, &ie) {
			return "", nil, nil, err
		}
		return "", nil, nil, inputerr.Errorf("cannot read %s: %w", what, err)
	}
	return name, r, func() { r.Close() }, nil
}

// Parsed is a record read from another tool or an earlier run, with its
// English parsed strictly.
type Parsed struct {
	Rec   *Record
	Sents []fragments.Sentence
	// Frag is the record's fragment, or where it names none the smallest
	// fragment that holds its sentences.
	Frag fragments.Fragment
	// Old is the label the record came with (-1 when it had none).
	Old int
	// Where is file:line, for messages.
	Where string
	// Lexicon is the vocabulary the English was parsed with.
	Lexicon *fragments.Lexicon
}

// ReadParsed reads every record of a JSONL file (stdin for "-") and parses
// the English of its sentences (or, without sentences, of its text split
// after each full stop). Records need not be valid records of this
// toolkit; a sentence outside the grammar, or outside the fragment the
// record names, is an inputerr.Error naming the file, line and sentence. The
// words are those of lx (nil: the built-in vocabulary). It stops with
// ctx's error once ctx ends.
func ReadParsed(ctx context.Context, name string, stdin io.Reader, lx *fragments.Lexicon) ([]Parsed, error) {
	if lx == nil {
		lx = fragments.Default()
	}
	display, r, closer, err := openInput(name, stdin, "records")
	if err != nil {
		return nil, err
	}
	defer closer()
	dec := NewDecoder(r, display)
	var out []Parsed
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rec, err := dec.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, &inputerr.Error{Err: err}
		}
		p, err := parse(rec, fmt.Sprintf("%s:%d", display, dec.Line()), lx)
		if err != nil {
			return nil, &inputerr.Error{Err: err}
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, inputerr.Errorf("%s: no records", display)
	}
	return out, nil
}

// ReadLabelled is ReadParsed for records that must be labelled: a record
// with label -1 (or none) is an inputerr.Error naming its line. A record
// without an id gets its position, one without a fragment its smallest.
func ReadLabelled(ctx context.Context, name string, stdin io.Reader, lx *fragments.Lexicon) ([]Parsed, error) {
	ps, err := ReadParsed(ctx, name, stdin, lx)
	if err != nil {
		return nil, err
	}
	for i := range ps {
		p := &ps[i]
		if p.Old != LabelSat && p.Old != LabelUnsat {
			return nil, inputerr.Errorf("%s: record %q is not labelled (label %d); label it first with nlsat label", p.Where, p.Rec.ID, p.Old)
		}
		p.Rec.Fragment = p.Frag.String()
		if p.Rec.ID == "" {
			p.Rec.ID = fmt.Sprintf("%06d", i)
		}
	}
	return ps, nil
}

func parse(rec *Record, where string, lx *fragments.Lexicon) (Parsed, error) {
	if len(rec.Sentences) == 0 {
		rec.Sentences = fragments.SplitText(rec.Text)
	}
	if len(rec.Sentences) == 0 {
		return Parsed{}, fmt.Errorf("%s: record has neither sentences nor text%s", where, NotInstanceHint)
	}
	p := Parsed{Rec: rec, Old: rec.Label, Where: where, Frag: fragments.S, Lexicon: lx}
	if rec.LabelText == "" && rec.Label == 0 {
		p.Old = LabelAbsent // a record without a label key
	}
	var named *fragments.Fragment
	if rec.Fragment != "" {
		f, err := fragments.ParseFragment(rec.Fragment)
		if err != nil {
			return Parsed{}, fmt.Errorf("%s: %w", where, err)
		}
		named = &f
	}
	for i, text := range rec.Sentences {
		st, err := lx.Parse(text)
		if err != nil {
			return Parsed{}, fmt.Errorf("%s: sentence %d: %w", where, i+1, err)
		}
		if named != nil && st.Fragment() > *named {
			return Parsed{}, fmt.Errorf("%s: sentence %d %q is in fragment %s, but the record says %s", where, i+1, text, st.Fragment(), *named)
		}
		p.Sents = append(p.Sents, st)
		p.Frag = max(p.Frag, st.Fragment())
	}
	if named != nil {
		p.Frag = *named
	}
	return p, nil
}

// Relabel rewrites the fields of p's record that follow from its English
// (templates, formulas; text, words and fragment where the record lacks
// them) and writes verdict v, given by solverName, into it. A record
// without an id gets its position i.
func (p *Parsed) Relabel(i int, v solver.Verdict, solverName string) {
	r := p.Rec
	r.Templates, r.Formulas = nil, nil
	top := fragments.S
	for _, st := range p.Sents {
		r.Templates = append(r.Templates, st.ID())
		r.Formulas = append(r.Formulas, st.FormulaText())
		top = max(top, st.Fragment())
	}
	if r.ID == "" {
		r.ID = fmt.Sprintf("%06d", i)
	}
	if r.Fragment == "" {
		r.Fragment = top.String()
	}
	if len(r.Nouns) == 0 && len(r.Verbs) == 0 {
		r.Nouns, r.Verbs = wordsOf(p.Sents)
		r.N1, r.N2 = len(r.Nouns), len(r.Verbs)
	}
	if r.Text == "" {
		r.Text = strings.Join(r.Sentences, " ")
	}
	r.SetVerdict(v, solverName)
}

// wordsOf lists the distinct nouns and verbs of sents in order of first use.
func wordsOf(sents []fragments.Sentence) (nouns, verbs []string) {
	seen := map[string]bool{}
	for _, st := range sents {
		for _, n := range st.Nouns() {
			if !seen["n:"+n] {
				seen["n:"+n] = true
				nouns = append(nouns, n)
			}
		}
		for _, v := range st.Verbs() {
			if !seen["v:"+v] {
				seen["v:"+v] = true
				verbs = append(verbs, v)
			}
		}
	}
	return nouns, verbs
}
