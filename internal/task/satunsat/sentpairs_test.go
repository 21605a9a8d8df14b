package satunsat

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/audit"
	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/dataset/datasettest"
)

// TestSentencePairs audits toy datasets whose labels single sentences do
// not tell: one whose labels nothing tells, and one where the label is
// planted in how two sentences combine. Every record gets two sentences
// of the same templates in which one noun B occurs plain and negated: in
// a sat record B is the first sentence's object ("every A is a B",
// "every non-B is a C": a chain), in an unsat one its subject ("every B
// is a A", "every non-B is a C"). Skeletons and each noun's degree and
// polarities are alike. The pairs baselines must flag the plant on the
// records without a two-sentence contradiction (all of them here), and
// nothing in the unplanted set. In a joint set whose sat records carry
// the plant in one fragment of four, the audit flags that fragment's
// records, and no other fragment's.
func TestSentencePairs(t *testing.T) {
	chain := func(chained bool) func(rng *rand.Rand, r *dataset.Record) {
		return func(rng *rand.Rand, r *dataset.Record) {
			perm := rng.Perm(len(datasettest.Nouns))
			a, b, c := datasettest.Nouns[perm[0]], datasettest.Nouns[perm[1]], datasettest.Nouns[perm[2]]
			first := fmt.Sprintf("Every %s is a %s.", b, a)
			if chained {
				first = fmt.Sprintf("Every %s is a %s.", a, b)
			}
			r.Sentences = append(r.Sentences, first, fmt.Sprintf("Every non-%s is a %s.", b, c))
			r.Text = strings.Join(r.Sentences, " ")
		}
	}
	tests := []struct {
		name   string
		sat    func(rng *rand.Rand, r *dataset.Record)
		unsat  func(rng *rand.Rand, r *dataset.Record)
		leaked bool
		// planted, when set, makes a joint set of S, W, V and Z records
		// in turn, whose sat records of fragment planted take sat and the
		// others unsat's sentences.
		planted string
	}{
		{"no leak", chain(false), chain(false), false, ""},
		{"chains in sat records", chain(true), chain(false), true, ""},
		{"chains in one fragment's sat records", chain(true), chain(false), true, "V"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			splits := toySplits(7, [3]int{1500, 600, 600}, nil)
			rng := rand.New(rand.NewPCG(3, 3))
			for s := range splits {
				for i, r := range splits[s] {
					if tt.planted != "" {
						r.Fragment = []string{"S", "W", "V", "Z"}[i/2%4]
					}
					if r.Label == 1 && (tt.planted == "" || r.Fragment == tt.planted) {
						tt.sat(rng, r)
					} else {
						tt.unsat(rng, r)
					}
				}
			}
			rep, err := audit.Run(context.Background(), Audit, writeDataset(t, t.TempDir(), splits), audit.Options{MinStratum: 50})
			if err != nil {
				t.Fatal(err)
			}
			if rep.SentencePairs == nil || len(rep.SentencePairs.Splits) != 2 {
				t.Fatalf("sentence pairs section: %+v", rep.SentencePairs)
			}
			for _, ps := range rep.SentencePairs.Splits {
				if tt.planted != "" {
					if len(ps.Fragments) != 4 {
						t.Fatalf("%s: %d fragments scored, want 4", ps.Split, len(ps.Fragments))
					}
					for _, fs := range ps.Fragments {
						if want := fs.Fragment == tt.planted; fs.Verdict.Shortcut != want || fs.Records != len(splits[1])/4 {
							t.Errorf("%s, fragment %s (%d records): shortcut %v, want %v: %s", ps.Split, fs.Fragment, fs.Records, fs.Verdict.Shortcut, want, fs.Verdict.Text)
						}
					}
					continue
				}
				if len(ps.Fragments) != 0 {
					t.Errorf("%s: %d fragments scored in a set of one fragment", ps.Split, len(ps.Fragments))
				}
				if ps.Verdict.Shortcut != tt.leaked {
					t.Errorf("%s: shortcut %v, want %v: %s", ps.Split, ps.Verdict.Shortcut, tt.leaked, ps.Verdict.Text)
				}
				if tt.leaked && !slices.Contains(ps.Verdict.Leaks, "pairs:pairs-1") {
					t.Errorf("%s: leaks %v, want pairs:pairs-1 among them", ps.Split, ps.Verdict.Leaks)
				}
			}
			if tt.planted != "" {
				// The text gives a row per fragment and split, the
				// planted one marked, and the summary a verdict line each.
				var text strings.Builder
				if err := rep.Text(&text); err != nil {
					t.Fatal(err)
				}
				rows := map[string]bool{}
				for _, line := range strings.Split(text.String(), "\n") {
					if f := strings.Fields(line); len(f) > 3 {
						rows[strings.Join(f[:3], " ")] = true
					}
				}
				for _, want := range []string{"pairs-1 test " + tt.planted, "pairs-2 validation S"} {
					if !rows[want] {
						t.Errorf("the report's text has no row %q", want)
					}
				}
				if want := "test, fragment " + tt.planted + ": sentence pairs give the label away"; !strings.Contains(text.String(), want) {
					t.Errorf("the report's text lacks %q", want)
				}
				if n := strings.Count(rep.Summary(), "  - fragment "); n < 2*4 {
					t.Errorf("the summary has %d fragment lines, want at least 8 (4 per split):\n%s", n, rep.Summary())
				}
			}
			// The report's list of shortcuts, which a build prints at its
			// end, names the sentence pairs' too.
			named := slices.ContainsFunc(rep.Shortcuts(), func(s string) bool {
				return strings.Contains(s, "sentence pairs: ") || strings.Contains(s, "sentence pairs, fragment "+tt.planted+": ")
			})
			if named != tt.leaked {
				t.Errorf("Shortcuts() = %q: names the sentence pairs %v, want %v", rep.Shortcuts(), named, tt.leaked)
			}
		})
	}
}
