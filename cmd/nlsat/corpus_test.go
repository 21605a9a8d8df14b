package main

import (
	"bufio"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
	"github.com/nlsat/nlsat/internal/solver/z3"
)

// corpusEntry is one block of testdata/handmade.txt.
type corpusEntry struct {
	id, fragment, label, why string
	sentences                []string
	line                     int
}

func readCorpus(t *testing.T, name string) []corpusEntry {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusEntry
	var cur *corpusEntry
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "":
			cur = nil
		case strings.HasPrefix(line, "#"):
			key, val, ok := strings.Cut(strings.TrimSpace(strings.TrimPrefix(line, "#")), ": ")
			if !ok || cur == nil && key != "id" {
				continue // file comments
			}
			if key == "id" {
				out = append(out, corpusEntry{id: val, line: n})
				cur = &out[len(out)-1]
			}
			switch key {
			case "fragment":
				cur.fragment = val
			case "label":
				cur.label = val
			case "why":
				cur.why = val
			}
		case cur != nil:
			cur.sentences = append(cur.sentences, line)
		default:
			t.Fatalf("%s:%d: sentence outside a block", name, n)
		}
	}
	return out
}

// TestHandmadeCorpus decides every hand-labelled instance with every
// backend available; the labels are justified in the file.
func TestHandmadeCorpus(t *testing.T) {
	corpus := readCorpus(t, "../../testdata/handmade.txt")
	if len(corpus) < 40 {
		t.Fatalf("corpus has %d instances, want at least 40", len(corpus))
	}
	backends := []solver.Backend{native.New(native.Options{})}
	if z3.Available() {
		z, err := z3.New(z3.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer z.Close()
		backends = append(backends, z)
	} else {
		t.Log("z3 not built in: checking the native backend only")
	}
	seen := map[string]bool{}
	for _, e := range corpus {
		if seen[e.id] || e.why == "" || (e.label != "sat" && e.label != "unsat") {
			t.Errorf("line %d: entry %q is a duplicate or lacks a label or a reason", e.line, e.id)
		}
		seen[e.id] = true
		frag, err := fragments.ParseFragment(e.fragment)
		if err != nil {
			t.Fatalf("%s: %v", e.id, err)
		}
		var fs []fol.Formula
		top := fragments.S
		for _, text := range e.sentences {
			st, err := fragments.Parse(text)
			if err != nil {
				t.Fatalf("%s: %v", e.id, err)
			}
			top = max(top, st.Fragment())
			fs = append(fs, st.Formula())
		}
		if top != frag {
			t.Errorf("%s: smallest fragment is %s, the file says %s", e.id, top, frag)
		}
		for _, b := range backends {
			d, err := solver.Decide(context.Background(), b, fs, solver.DecideOptions{MUS: true})
			if err != nil {
				t.Errorf("%s with %s: %v", e.id, b.Name(), err)
				continue
			}
			if got := d.Status.String(); got != e.label {
				t.Errorf("%s with %s: got %s, want %s (%s)", e.id, b.Name(), got, e.label, e.why)
			}
		}
	}
}
