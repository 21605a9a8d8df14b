package textfeat

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestPairPatterns checks the delexicalised patterns: shared words
// indexed in order, others masked, the smaller of the two orders kept,
// "an" written "a", and pairs sharing no content word left out.
func TestPairPatterns(t *testing.T) {
	tests := []struct {
		sentences []string
		one, two  []string
	}{
		{[]string{"Every artist is a baker.", "No baker is an artist."},
			[]string{"every X0 is a X1| no X1 is a X0"}, []string{"every X0 is a X1| no X1 is a X0"}},
		{[]string{"Some chemist is not a dentist.", "Every non-dentist is a farmer."},
			[]string{"every non- X0 is a _| some _ is not a X0"}, nil},
		{[]string{"Some chemist is a dentist.", "Every farmer is a gardener."}, nil, nil},
	}
	for _, tt := range tests {
		names := map[uint64]string{}
		one, two := PairPatterns(tt.sentences, names)
		text := func(hs []uint64) []string {
			var out []string
			for _, h := range hs {
				out = append(out, names[h])
			}
			return out
		}
		if got := text(one); !slices.Equal(got, tt.one) {
			t.Errorf("%q: sharing one word %q, want %q", tt.sentences, got, tt.one)
		}
		if got := text(two); !slices.Equal(got, tt.two) {
			t.Errorf("%q: sharing two words %q, want %q", tt.sentences, got, tt.two)
		}
	}
}

// TestPairPatternsWordSets: the word bitsets only skip pairs that share
// no content word, so the patterns are those of the pairwise comparison
// alone, on instances of few words (most pairs share one) and of many
// (most share none), and past 64 words, where there are no bitsets.
func TestPairPatternsWordSets(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	templates := []string{"Every %s is a %s.", "No %s is a non-%s.", "Some %s is not a %s.", "Every non-%s %s every %s."}
	for _, words := range []int{3, 12, 60, 64, 65, 120} {
		for range 50 {
			var sentences []string
			for range 2 + rng.IntN(30) {
				sentences = append(sentences, randomSentence(rng, templates, words))
			}
			one, two := PairPatterns(sentences, nil)
			pt := newPatterner(sentences)
			pt.words = nil
			var wantOne, wantTwo []uint64
			for i := range pt.sents {
				for j := i + 1; j < len(pt.sents); j++ {
					wantOne, wantTwo = pt.add(wantOne, wantTwo, i, j, false, nil)
				}
			}
			if !slices.Equal(one, sortedSet(wantOne)) || !slices.Equal(two, sortedSet(wantTwo)) {
				t.Fatalf("%d words, %q: patterns differ from the pairwise comparison", words, sentences)
			}
		}
	}
}

// TestPremisesPatterns: a premise set read once gives every hypothesis
// the patterns of the premises and it read together, whether its words are the
// premises' or new, and hypotheses read before do not change those of
// the next, below and above 64 content words.
func TestPremisesPatterns(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	templates := []string{"Every %s is a %s.", "No %s is a non-%s.", "Some %s is not a %s.", "Every non-%s %s every %s.", "No %s who is a %s %s some %s."}
	sentence := func(words int) string { return randomSentence(rng, templates, words) }
	for _, words := range []int{3, 12, 40, 70, 120} {
		for range 30 {
			var premises []string
			for range 1 + rng.IntN(30) {
				premises = append(premises, sentence(words))
			}
			pp := NewPremises(premises)
			for range 10 {
				h := sentence(words + 10) // some words no premise holds
				one, two := pp.Patterns(h)
				pt := newPatterner(append(slices.Clone(premises), h))
				var wantOne, wantTwo []uint64
				for i := range premises {
					wantOne, wantTwo = pt.add(wantOne, wantTwo, i, len(premises), true, nil)
				}
				if !slices.Equal(one, sortedSet(wantOne)) || !slices.Equal(two, sortedSet(wantTwo)) {
					t.Fatalf("%q with %q: the premises read once give other patterns than read afresh", premises, h)
				}
			}
		}
	}
}

// TestCommonPatterns: the patterns at least min rows hold, in increasing
// order, and the columns an index of them gives, in the patterns' order.
func TestCommonPatterns(t *testing.T) {
	rows := [][]uint64{{9, 3, 7}, {3, 7}, {7, 1}, {}}
	for _, c := range []struct {
		min  int
		want []uint64
	}{{1, []uint64{1, 3, 7, 9}}, {2, []uint64{3, 7}}, {3, []uint64{7}}, {4, nil}} {
		got := CommonPatterns(len(rows), func(i int) []uint64 { return rows[i] }, c.min)
		if !slices.Equal(got, c.want) {
			t.Errorf("min %d: %v, want %v", c.min, got, c.want)
		}
	}
	x := NewPatternIndex([]uint64{3, 7})
	if got := x.AppendColumns([]int32{5}, []uint64{9, 7, 3, 1}); !slices.Equal(got, []int32{5, 1, 0}) {
		t.Errorf("AppendColumns: %v, want [5 1 0]", got)
	}
}

// TestPatternIndex: an index answers as a map of its keys to their
// places would, the later place for a key given twice, over tables of
// every size from empty, whose searches wrap round their end.
func TestPatternIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, n := range []int{0, 1, 2, 3, 7, 64, 1000} {
		for range 20 {
			keys := make([]uint64, n)
			want := map[uint64]int32{}
			for c := range keys {
				keys[c] = rng.Uint64()
				if c > 0 && rng.IntN(8) == 0 {
					keys[c] = keys[rng.IntN(c)] // a key twice
				}
				want[keys[c]] = int32(c)
			}
			x := NewPatternIndex(keys)
			queries := append(slices.Clone(keys), rng.Uint64(), 0, ^uint64(0))
			for _, p := range queries {
				c, ok := x.Column(p)
				if w, wok := want[p]; c != w && (ok || wok) || ok != wok {
					t.Fatalf("%d keys: pattern %x at %d (%v), want %d (%v)", n, p, c, ok, w, wok)
				}
			}
		}
	}
	var none PatternIndex
	if c, ok := none.Column(5); ok || c != -1 {
		t.Errorf("the nil index holds 5 at %d", c)
	}
}

// BenchmarkPatternIndex looks up the patterns of 2,000 rows of 300, two
// in three a model's, in an index of 400,000 (the shape of the pilot's
// pair model on A) and in a Go map of the same: compare the two.
func BenchmarkPatternIndex(b *testing.B) {
	rng := rand.New(rand.NewPCG(23, 24))
	keys := make([]uint64, 400000)
	m := make(map[uint64]int32, len(keys))
	for c := range keys {
		keys[c] = rng.Uint64()
		m[keys[c]] = int32(c)
	}
	rows := make([][]uint64, 2000)
	for i := range rows {
		for range 300 {
			p := rng.Uint64()
			if rng.IntN(3) > 0 {
				p = keys[rng.IntN(len(keys))]
			}
			rows[i] = append(rows[i], p)
		}
	}
	var buf []int32
	b.Run("map", func(b *testing.B) {
		for b.Loop() {
			for _, r := range rows {
				buf = buf[:0]
				for _, p := range r {
					if c, ok := m[p]; ok {
						buf = append(buf, c)
					}
				}
			}
		}
	})
	x := NewPatternIndex(keys)
	b.Run("index", func(b *testing.B) {
		for b.Loop() {
			for _, r := range rows {
				buf = x.AppendColumns(buf[:0], r)
			}
		}
	})
}

// TestPatternTableNumbers: patterns are numbered in the order first seen,
// and a table that may not add leaves out what it lacks.
func TestPatternTableNumbers(t *testing.T) {
	tab := NewPatternTable()
	tests := []struct {
		name string
		ps   []uint64
		add  bool
		want []uint32
	}{
		{"numbers in order", []uint64{7, 3, 7}, true, []uint32{0, 1, 0}},
		{"adds new ones", []uint64{9, 3}, true, []uint32{2, 1}},
		{"leaves out unknown", []uint64{5, 9, 7, 5}, false, []uint32{2, 0}},
		{"adds nothing", []uint64{5}, false, []uint32{}},
	}
	for _, tt := range tests {
		if got := tab.Numbers(tt.ps, tt.add); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
	if tab.Len() != 3 || tab.Key(0) != 7 || tab.Key(1) != 3 || tab.Key(2) != 9 {
		t.Errorf("table of %d: want 7, 3, 9", tab.Len())
	}
}

// TestPatternTableVocabulary: over rows of numbers, Vocabulary and
// PatternColumns give what CommonPatterns and PatternIndex give over the
// rows' patterns: the same columns in the same order, for every row (and
// Count counts them).
func TestPatternTableVocabulary(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, min := range []int{1, 2, 3, 5} {
		var rows [][]uint64
		for range 300 {
			var row []uint64
			for range rng.IntN(12) {
				row = append(row, uint64(rng.IntN(60))*0x9e3779b97f4a7c15)
			}
			rows = append(rows, row)
		}
		tab := NewPatternTable()
		var numbered [][]uint32
		for _, r := range rows {
			numbered = append(numbered, tab.Numbers(r, true))
		}
		keys := CommonPatterns(len(rows), func(i int) []uint64 { return rows[i] }, min)
		ids, column := tab.Vocabulary(len(numbered), func(i int) []uint32 { return numbered[i] }, min)
		var got []uint64
		for _, id := range ids {
			got = append(got, tab.Key(id))
		}
		if !slices.Equal(got, keys) {
			t.Fatalf("min %d: vocabulary %v, want %v", min, got, keys)
		}
		index := NewPatternIndex(keys)
		for i := range rows {
			if a, b := column.Append(nil, numbered[i]), index.AppendColumns(nil, rows[i]); !slices.Equal(a, b) {
				t.Fatalf("min %d, row %d: columns %v, want %v", min, i, a, b)
			}
			if n := column.Count(numbered[i]); n != len(index.AppendColumns(nil, rows[i])) {
				t.Fatalf("min %d, row %d: counted %d columns, want %d", min, i, n, len(index.AppendColumns(nil, rows[i])))
			}
		}
	}
}

// refPattern is the pattern of sentences a then c written the plain
// way, a word at a time, as the package defines it: the words both share
// X0, X1, … in order of first occurrence, other content words _, function
// words as they are ("an" as "a"), a space before each word and "|"
// between the sentences. It returns "" when they share no content word,
// and how many they share.
func refPattern(a, c string) (string, int) {
	words := func(s string) []string {
		var out []string
		Tokens(s, func(tok []byte) {
			if w := string(tok); w != "." {
				out = append(out, w)
			}
		})
		return out
	}
	content := func(w string) bool { return w != "an" && !skeletonWord([]byte(w)) }
	wa, wc := words(a), words(c)
	shared := map[string]bool{}
	for _, w := range wa {
		if content(w) && slices.Contains(wc, w) {
			shared[w] = true
		}
	}
	if len(shared) == 0 {
		return "", 0
	}
	var b strings.Builder
	name := map[string]int{}
	for k, ws := range [][]string{wa, wc} {
		if k == 1 {
			b.WriteByte('|')
		}
		for _, w := range ws {
			b.WriteByte(' ')
			switch {
			case w == "an":
				b.WriteString("a")
			case !content(w):
				b.WriteString(w)
			case shared[w]:
				if _, ok := name[w]; !ok {
					name[w] = len(name)
				}
				fmt.Fprintf(&b, "X%d", name[w])
			default:
				b.WriteByte('_')
			}
		}
	}
	return b.String(), len(shared)
}

// TestPairPatternsAsDefined holds PairPatterns and PremisePatterns, with
// their names, to refPattern's texts and their FNV-1a hashes, on random
// sentences below and above 64 content words, with "an" and "non-".
func TestPairPatternsAsDefined(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	templates := []string{"Every %s is a %s.", "No %s is an %s.", "Some %s is not a non-%s.", "Every non-%s %s every %s.",
		"No %s who is a %s %s some %s.", "Some %s who %s every %s is a %s.", "Every %s %s it."}
	sentence := func(words int) string { return randomSentence(rng, templates, words) }
	for _, words := range []int{2, 5, 12, 40, 64, 70, 150} {
		for range 40 {
			var ss []string
			for range 1 + rng.IntN(25) {
				ss = append(ss, sentence(words))
			}
			var wantOne, wantTwo []uint64
			wantNames := map[uint64]string{}
			add := func(p string, n int) {
				if n == 0 {
					return
				}
				h := fnv1a([]byte(p))
				wantNames[h] = strings.TrimSpace(p)
				wantOne = append(wantOne, h)
				if n >= 2 {
					wantTwo = append(wantTwo, h)
				}
			}
			for i := range ss {
				for j := i + 1; j < len(ss); j++ {
					p, n := refPattern(ss[i], ss[j])
					if q, _ := refPattern(ss[j], ss[i]); q < p {
						p = q
					}
					add(p, n)
				}
			}
			names := map[uint64]string{}
			one, two := PairPatterns(ss, names)
			if !slices.Equal(one, sortedSet(wantOne)) || !slices.Equal(two, sortedSet(wantTwo)) {
				t.Fatalf("%q: the patterns are not the ones written the plain way", ss)
			}
			for h, p := range wantNames {
				if names[h] != p {
					t.Fatalf("%q: pattern %x named %q, want %q", ss, h, names[h], p)
				}
			}
			h := sentence(words + 5)
			wantOne, wantTwo = nil, nil
			for _, s := range ss {
				add(refPattern(s, h))
			}
			one, two = PremisePatterns(ss, h, nil)
			if !slices.Equal(one, sortedSet(wantOne)) || !slices.Equal(two, sortedSet(wantTwo)) {
				t.Fatalf("%q with %q: the premise patterns are not the ones written the plain way", ss, h)
			}
		}
	}
}

// benchSentences returns 40 random sentences over 16 nouns and verbs,
// the size of an A instance of the default region, always the same.
func benchSentences() []string {
	rng := rand.New(rand.NewPCG(7, 8))
	templates := []string{"Every %s is a %s.", "No %s is an %s.", "Some %s is not a non-%s.", "Every non-%s %s every %s.",
		"No %s who is a %s %s some %s.", "Some %s who %s every %s is a %s."}
	var ss []string
	for range 40 {
		ss = append(ss, randomSentence(rng, templates, 16))
	}
	return ss
}

// BenchmarkPairPatterns writes the patterns of benchSentences.
func BenchmarkPairPatterns(b *testing.B) {
	ss := benchSentences()
	for b.Loop() {
		PairPatterns(ss, nil)
	}
}

// randomSentence fills a template of templates, at random, with words
// w0 to w(words-1) drawn at random.
func randomSentence(rng *rand.Rand, templates []string, words int) string {
	tmpl := templates[rng.IntN(len(templates))]
	args := make([]any, strings.Count(tmpl, "%s"))
	for k := range args {
		args[k] = fmt.Sprintf("w%d", rng.IntN(words))
	}
	return fmt.Sprintf(tmpl, args...)
}
