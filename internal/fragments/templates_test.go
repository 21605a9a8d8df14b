package fragments

import (
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
)

// templateCase is one variant of one template: a sentence, its English and
// its formula, both written out by hand from the spec's tables.
type templateCase struct {
	id, o, p, q, r, s string
	english           string
	formula           fol.Formula
}

// The nouns a, b, c stand for artist, beekeeper, chemist.
var (
	a, na = u("artist", x), not(u("artist", x))
	b, nb = u("beekeeper", y), not(u("beekeeper", y))
	bx    = u("beekeeper", x)
	c     = u("chemist", x)
	adm   = bin("admire", x, y)
	hate  = bin("hate", y, x)
)

var templateCases = []templateCase{
	{"S1", "", "non-artist", "beekeeper", "", "", "Every non-artist is a beekeeper.", all(x, imp(na, bx))},
	{"S2", "", "artist", "beekeeper", "", "", "No artist is a beekeeper.", all(x, imp(a, not(bx)))},
	{"S3", "", "non-artist", "non-beekeeper", "", "", "Some non-artist is not a beekeeper.", ex(x, and(na, not(bx)))},
	{"W1", "artist", "non-beekeeper", "engineer", "", "", "Every artist who is not a beekeeper is an engineer.", all(x, imp(and(a, not(bx)), u("engineer", x)))},
	{"W2", "non-artist", "beekeeper", "chemist", "", "", "No non-artist who is a beekeeper is a chemist.", all(x, imp(and(na, bx), not(c)))},
	{"W3", "artist", "beekeeper", "non-chemist", "", "", "Some artist who is a beekeeper is not a chemist.", ex(x, and(a, bx, not(c)))},
	{"V1.every-every", "", "artist", "beekeeper", "admire", "", "Every artist admires every beekeeper.", all(x, imp(a, all(y, imp(b, adm))))},
	{"V1.every-some", "", "non-artist", "beekeeper", "admire", "", "Every non-artist admires some beekeeper.", all(x, imp(na, ex(y, and(b, adm))))},
	{"V1.some-every", "", "artist", "non-beekeeper", "admire", "", "Some artist admires every non-beekeeper.", ex(x, and(a, all(y, imp(nb, adm))))},
	{"V1.some-some", "", "non-artist", "non-beekeeper", "teach", "", "Some non-artist teaches some non-beekeeper.", ex(x, and(na, ex(y, and(nb, bin("teach", x, y)))))},
	{"V2.any", "", "artist", "beekeeper", "envy", "", "No artist envies any beekeeper.", all(x, imp(a, all(y, imp(b, not(bin("envy", x, y))))))},
	{"V2.every", "", "artist", "beekeeper", "admire", "", "No artist admires every beekeeper.", all(x, imp(a, ex(y, and(b, not(adm)))))},
	{"V3.any", "", "artist", "beekeeper", "admire", "", "Some artist does not admire any beekeeper.", ex(x, and(a, all(y, imp(b, not(adm)))))},
	{"V3.every", "", "artist", "non-beekeeper", "envy", "", "Some artist does not envy every non-beekeeper.", ex(x, and(a, ex(y, and(nb, not(bin("envy", x, y))))))},
	{"Z1.some", "artist", "beekeeper", "chemist", "admire", "", "Every artist who admires some beekeeper is a chemist.", all(x, imp(and(a, ex(y, and(b, adm))), c))},
	{"Z1.every", "artist", "non-beekeeper", "engineer", "admire", "", "Every artist who admires every non-beekeeper is an engineer.", all(x, imp(and(a, all(y, imp(nb, adm))), u("engineer", x)))},
	{"Z1.not-any", "non-artist", "beekeeper", "chemist", "admire", "", "Every non-artist who does not admire any beekeeper is a chemist.", all(x, imp(and(na, all(y, imp(b, not(adm)))), c))},
	{"Z1.not-every", "artist", "beekeeper", "chemist", "admire", "", "Every artist who does not admire every beekeeper is a chemist.", all(x, imp(and(a, ex(y, and(b, not(adm)))), c))},
	{"Z2.some", "artist", "beekeeper", "chemist", "admire", "", "No artist who admires some beekeeper is a chemist.", all(x, imp(and(a, ex(y, and(b, adm))), not(c)))},
	{"Z2.every", "artist", "beekeeper", "chemist", "admire", "", "No artist who admires every beekeeper is a chemist.", all(x, imp(and(a, all(y, imp(b, adm))), not(c)))},
	{"Z2.not-any", "artist", "beekeeper", "chemist", "admire", "", "No artist who does not admire any beekeeper is a chemist.", all(x, imp(and(a, all(y, imp(b, not(adm)))), not(c)))},
	{"Z2.not-every", "artist", "beekeeper", "chemist", "admire", "", "No artist who does not admire every beekeeper is a chemist.", all(x, imp(and(a, ex(y, and(b, not(adm)))), not(c)))},
	{"Z3.some", "artist", "beekeeper", "non-chemist", "admire", "", "Some artist who admires some beekeeper is not a chemist.", ex(x, and(a, ex(y, and(b, adm)), not(c)))},
	{"Z3.every", "artist", "beekeeper", "chemist", "admire", "", "Some artist who admires every beekeeper is a chemist.", ex(x, and(a, all(y, imp(b, adm)), c))},
	{"Z3.not-any", "artist", "beekeeper", "chemist", "admire", "", "Some artist who does not admire any beekeeper is a chemist.", ex(x, and(a, all(y, imp(b, not(adm))), c))},
	{"Z3.not-every", "non-artist", "non-beekeeper", "non-chemist", "admire", "", "Some non-artist who does not admire every non-beekeeper is not a chemist.", ex(x, and(na, ex(y, and(nb, not(adm))), not(c)))},
	{"A1.every-every.who", "artist", "beekeeper", "", "admire", "hate", "Every artist admires every beekeeper who hates him.", all(x, imp(a, all(y, imp(and(b, hate), adm))))},
	{"A1.every-every.who-not", "artist", "beekeeper", "", "admire", "hate", "Every artist admires every beekeeper who does not hate him.", all(x, imp(a, all(y, imp(and(b, not(hate)), adm))))},
	{"A1.every-some.who", "artist", "beekeeper", "", "admire", "hate", "Every artist admires some beekeeper who hates him.", all(x, imp(a, ex(y, and(b, hate, adm))))},
	{"A1.every-some.who-not", "artist", "non-beekeeper", "", "admire", "hate", "Every artist admires some non-beekeeper who does not hate him.", all(x, imp(a, ex(y, and(nb, not(hate), adm))))},
	{"A1.some-every.who", "artist", "beekeeper", "", "admire", "hate", "Some artist admires every beekeeper who hates him.", ex(x, and(a, all(y, imp(and(b, hate), adm))))},
	{"A1.some-every.who-not", "artist", "beekeeper", "", "admire", "hate", "Some artist admires every beekeeper who does not hate him.", ex(x, and(a, all(y, imp(and(b, not(hate)), adm))))},
	{"A1.some-some.who", "artist", "beekeeper", "", "admire", "hate", "Some artist admires some beekeeper who hates him.", ex(x, and(a, ex(y, and(b, hate, adm))))},
	{"A1.some-some.who-not", "non-artist", "non-beekeeper", "", "admire", "hate", "Some non-artist admires some non-beekeeper who does not hate him.", ex(x, and(na, ex(y, and(nb, not(hate), adm))))},
	{"A2.any.who", "artist", "beekeeper", "", "admire", "hate", "No artist admires any beekeeper who hates him.", all(x, imp(a, all(y, imp(and(b, hate), not(adm)))))},
	{"A2.any.who-not", "artist", "beekeeper", "", "admire", "hate", "No artist admires any beekeeper who does not hate him.", all(x, imp(a, all(y, imp(and(b, not(hate)), not(adm)))))},
	{"A2.every.who", "artist", "beekeeper", "", "admire", "hate", "No artist admires every beekeeper who hates him.", all(x, imp(a, ex(y, and(b, hate, not(adm)))))},
	{"A2.every.who-not", "non-artist", "beekeeper", "", "admire", "hate", "No non-artist admires every beekeeper who does not hate him.", all(x, imp(na, ex(y, and(b, not(hate), not(adm)))))},
	// The spec's own example sentence for A.
	{"A3.any.who", "artist", "beekeeper", "", "hate", "admire", "Some artist does not hate any beekeeper who admires him.", ex(x, and(a, all(y, imp(and(b, bin("admire", y, x)), not(bin("hate", x, y))))))},
	{"A3.any.who-not", "artist", "beekeeper", "", "admire", "hate", "Some artist does not admire any beekeeper who does not hate him.", ex(x, and(a, all(y, imp(and(b, not(hate)), not(adm)))))},
	{"A3.every.who", "artist", "beekeeper", "", "admire", "hate", "Some artist does not admire every beekeeper who hates him.", ex(x, and(a, ex(y, and(b, hate, not(adm)))))},
	{"A3.every.who-not", "artist", "non-beekeeper", "", "admire", "hate", "Some artist does not admire every non-beekeeper who does not hate him.", ex(x, and(a, ex(y, and(nb, not(hate), not(adm)))))},
}

// TestTemplates checks every variant of every template: English and
// formula against the hand-written expectations, and the parse back.
func TestTemplates(t *testing.T) {
	seen := map[string]bool{}
	for _, tc := range templateCases {
		s := sen(t, tc.id, tc.o, tc.p, tc.q, tc.r, tc.s)
		seen[tc.id] = true
		if err := s.Check(); err != nil {
			t.Errorf("%s: Check: %v", tc.id, err)
		}
		if got := s.English(); got != tc.english {
			t.Errorf("%s: English() = %q, want %q", tc.id, got, tc.english)
		}
		if got := s.Formula(); !fol.Equal(got, tc.formula) {
			t.Errorf("%s: Formula() differs from the spec's formula", tc.id)
		}
		back, err := Parse(tc.english)
		if err != nil {
			t.Errorf("%s: Parse: %v", tc.id, err)
		} else if back != s {
			t.Errorf("%s: Parse = %+v, want %+v", tc.id, back, s)
		}
	}
	for _, sh := range A.Shapes() {
		if !seen[sh.ID()] {
			t.Errorf("no template case for %s", sh.ID())
		}
	}
}
