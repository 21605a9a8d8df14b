package canon

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fragments"
)

// TestHandmade checks pairs whose answer is known by reading them.
func TestHandmade(t *testing.T) {
	const (
		S = fragments.S
		W = fragments.W
		V = fragments.V
		A = fragments.A
	)
	tests := []struct {
		name         string
		fa, fb       fragments.Fragment
		a, b         string
		iso, written bool // the answers of Key and ExactKey
	}{
		{"subject polarity", S, S, "Every actor is an acrobat.", "Every non-actor is an acrobat.", false, false},
		{"predicate polarity", S, S, "Some actor is an acrobat.", "Some actor is not an acrobat.", false, false},
		{"one polarity among several", S, S,
			"Some actor is an acrobat. Some acrobat is not an actor.",
			"Some actor is not an acrobat. Some acrobat is not an actor.", false, false},
		{"swap two nouns", S, S,
			"Every actor is an acrobat. Some acrobat is not an actuary.",
			"Every acrobat is an actor. Some actor is not an actuary.", true, false},
		{"order of sentences", S, S,
			"Every actor is an acrobat. No acrobat is an actuary.",
			"No acrobat is an actuary. Every actor is an acrobat.", true, true},
		{"a sentence written twice", S, S,
			"Every actor is an acrobat. Every actor is an acrobat.", "Every actor is an acrobat.", true, true},
		{"cycle against chain", S, S,
			"Every actor is an acrobat. Every acrobat is an actor.",
			"Every actor is an acrobat. Every acrobat is an actuary.", false, false},
		{"roles are not interchangeable", S, S,
			"Every actor is an acrobat. Every actor is an actuary.",
			"Every acrobat is an actor. Every actuary is an actor.", false, false},
		{"repeated noun in one sentence", W, W,
			"Every actor who is an actor is an acrobat.", "Every actor who is an acrobat is an acrobat.", false, false},
		{"repeated noun renamed", W, W,
			"Every actor who is an actor is an acrobat.", "Every acrobat who is an acrobat is an actor.", true, false},
		{"one verb or two", V, V,
			"Every actor admires every acrobat. Every acrobat admires every actor.",
			"Every actor admires every acrobat. Every acrobat adores every actor.", false, false},
		{"swap two verbs", V, V,
			"Every actor admires every acrobat. Every actor adores some acrobat.",
			"Every actor adores every acrobat. Every actor admires some acrobat.", true, false},
		{"verbs and nouns renamed together", V, V,
			"Every actor admires every acrobat. Some acrobat does not adore any actor.",
			"Every acrobat adores every actor. Some actor does not admire any acrobat.", true, false},
		{"verb renaming must be one map", V, V,
			"Every actor admires every acrobat. Some acrobat does not adore any actor.",
			"Every acrobat adores every actor. Some actor does not adore any acrobat.", false, false},
		{"anaphora swap of verbs", A, A,
			"Every actor admires some acrobat who adores him.", "Every actor adores some acrobat who admires him.", true, false},
		{"anaphora negated", A, A,
			"Every actor admires some acrobat who adores him.", "Every actor admires some acrobat who does not adore him.", false, false},
		{"anaphora object polarity", A, A,
			"Every actor admires some acrobat who adores him.", "Every actor admires some non-acrobat who adores him.", false, false},
		{"same sentences, other fragment", S, W, "Every actor is an acrobat.", "Every actor is an acrobat.", false, false},
	}
	for _, tt := range tests {
		a, b := parseText(t, tt.fa, tt.a), parseText(t, tt.fb, tt.b)
		if got := Key(a) == Key(b); got != tt.iso {
			t.Errorf("%s: keys equal = %v, want %v", tt.name, got, tt.iso)
		}
		if got := ExactKey(a) == ExactKey(b); got != tt.written {
			t.Errorf("%s: exact keys equal = %v, want %v", tt.name, got, tt.written)
		}
		if brute := bruteIsomorphic(a, b); brute != tt.iso {
			t.Errorf("%s: brute force says %v, the table %v", tt.name, brute, tt.iso)
		}
	}
}

func parseText(t *testing.T, f fragments.Fragment, text string) fragments.Instance {
	t.Helper()
	ss, err := fragments.ParseText(text)
	if err != nil {
		t.Fatal(err)
	}
	return fragments.Instance{Fragment: f, Sentences: ss}
}

// TestFallback forces the cap: the key must then be the marked exact key,
// equal for a shuffled copy and different for a renamed one and from the
// canonical key.
func TestFallback(t *testing.T) {
	in := cycle(fragments.S, 24, 24, 0)
	rng := rand.New(rand.NewPCG(9, 9))
	before := CapHits()
	capped := canonical(in, 1)
	if !capped.Capped || capped.Key != "F"+ExactKey(in) {
		t.Fatalf("got capped %v key %q, want the fallback key", capped.Capped, capped.Key)
	}
	if CapHits() == before {
		t.Errorf("CapHits did not count the fallback")
	}
	shuffled := in
	shuffled.Sentences = append([]fragments.Sentence(nil), in.Sentences...)
	rng.Shuffle(len(shuffled.Sentences), func(i, j int) {
		shuffled.Sentences[i], shuffled.Sentences[j] = shuffled.Sentences[j], shuffled.Sentences[i]
	})
	if canonical(shuffled, 1).Key != capped.Key {
		t.Errorf("fallback key changed under a shuffle")
	}
	if canonical(rename(rng, in, nil, nil), 1).Key == capped.Key {
		t.Errorf("fallback key unchanged under renaming: it must be the exact key")
	}
	if Key(in) == capped.Key || strings.HasPrefix(Key(in), "F") {
		t.Errorf("canonical key %q looks like a fallback key", Key(in))
	}
	bad := fragments.Instance{Fragment: fragments.S, Sentences: []fragments.Sentence{{Shape: fragments.Shape{Template: 99}}}}
	if !Canonical(bad).Capped {
		t.Errorf("a shape out of range was encoded")
	}
}

func TestEmpty(t *testing.T) {
	for _, f := range fragments.All() {
		a, b := fragments.Instance{Fragment: f}, fragments.Instance{Fragment: f, Nouns: []string{"actor"}}
		if Key(a) != Key(b) || ExactKey(a) != ExactKey(b) {
			t.Errorf("%s: unused nouns changed a key", f)
		}
		if f > fragments.S && Key(a) == Key(fragments.Instance{Fragment: f - 1}) {
			t.Errorf("%s: empty instances of two fragments share a key", f)
		}
	}
	if d := Digest(Key(fragments.Instance{Fragment: fragments.S})); len(d) != 64 {
		t.Errorf("Digest = %q, want 64 hex digits", d)
	}
}

// TestConcurrent checks that Key gives the same answers from several
// goroutines at once (searchers come from a pool).
func TestConcurrent(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	var ins []fragments.Instance
	var want []string
	for i := range 64 {
		f := fragments.All()[i%5]
		m, n1, n2 := sizes(rng, f)
		in := mustSample(t, rng, f, fragments.DefaultParams(), m, n1, n2)
		ins, want = append(ins, in), append(want, Key(in))
	}
	ins, want = append(ins, cycle(fragments.S, 24, 2, 0)), append(want, Key(cycle(fragments.S, 24, 2, 0)))
	errs := make(chan string, 4)
	for g := range 4 {
		go func() {
			for i := range ins {
				j := (i + 16*g) % len(ins)
				if Key(ins[j]) != want[j] {
					errs <- fmt.Sprintf("goroutine %d: instance %d got another key", g, j)
					return
				}
			}
			errs <- ""
		}()
	}
	for range 4 {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
}
