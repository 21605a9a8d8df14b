package split

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
)

// Balance modes.
const (
	// BalanceSurface thins candidates so that no surface feature predicts
	// the label (see Balance).
	BalanceSurface = "surface"
	// BalanceStrata only balances the labels per stratum.
	BalanceStrata = "strata"
)

// Balance says how labels are balanced beyond the equal counts of every
// stratum.
//
// Equal counts per stratum do not stop the surface from predicting the
// label: at a fixed (m, n1, n2), an instance with more existential
// sentences is more often satisfiable, and a logistic model on a few word
// counts scores over 60% on V, Z and A. With BalanceSurface each set first
// labels PilotFor candidates, its indices 0 to n−1, and fits p(x), a
// logistic model of P(sat) on the surface features x of Features with
// gradient-boosted trees on the candidate's structure added to its
// log-odds, calibrated on out-of-fold scores (balanceModels). The pilot only
// serves the fit: the set's instances are candidates n, n+1, … Each of
// them is kept with probability min(p, 1−p) / p(label) (p clipped to
// [PClip, 1−PClip]), by a uniform number drawn from the seed and the
// candidate's index alone. The kept candidates then have P(sat | x) = 1/2
// for every x, as far as p is right: both labels come from one
// distribution of surface features, and the strata's quotas take equal
// numbers of each from it. The model has seen none of the data. As far as
// p is wrong, what it got wrong is left in what it keeps, with the
// opposite sign: a faint pattern, which a classifier trained on the data
// can learn. So train and the evaluation set (validation and test) are
// sets of their own (Pool.PilotSize), each thinned by a model fitted to
// its own pilot: the errors of one are independent of the other's, and
// what a classifier learns of train's does not carry over to test.
type Balance struct {
	Mode  string `json:"mode"`
	Pilot int    `json:"pilot"`
	// Residual adds the residual stage (residual.go), fitted to a second
	// pilot of as many candidates as the first.
	Residual bool `json:"residual,omitempty"`
	// Pooled, in a joint build with the residual stage, fits the stages
	// of every fragment's train set together, and those of every
	// fragment's evaluation set together (residual.go,
	// Plan.ResidualGroups).
	Pooled bool `json:"pooled,omitempty"`
}

// Balancing constants; the plan's digest covers the mode and pilot, and
// changing these changes the data, so they are part of the toolkit.
const (
	DefaultPilot  = 100000
	PClip         = 0.05
	balanceLambda = 0.01
	balanceIters  = 200
)

// PilotFor returns the number of pilot candidates of pool k: the plan's
// pilot, but for a smaller pool twice its size (Pool.PilotSize when set),
// and at least minPilot or eight times the size, whichever is less, since
// a model fitted to a few hundred candidates leaves much of the shortcut
// in. (The nonlinear adversary found 52.1% on a 36,000 instance V set
// balanced on a pilot of its size, 51.2% with three times that.)
func (p *Plan) PilotFor(k int) int {
	if p.Balance.Mode != BalanceSurface {
		return 0
	}
	n := p.Pools[k].Size()
	if p.Pools[k].PilotSize > 0 {
		n = p.Pools[k].PilotSize
	}
	return min(p.Balance.Pilot, max(2*n, min(minPilot, 8*n)))
}

// ResidualFor returns the number of candidates of pool k's residual
// pilot, drawn after its pilot: as many, when the plan asks for the
// residual stage.
func (p *Plan) ResidualFor(k int) int {
	if !p.Balance.Residual {
		return 0
	}
	return p.PilotFor(k)
}

// ResidualGroups returns, for a plan whose residual stages are pooled,
// the groups of pools fitted together, each in pool order: the sets of
// train, then those of validation and test (the evaluation sets). Pools
// of one group have pilots of one size. Otherwise it returns nil.
func (p *Plan) ResidualGroups() [][]int {
	if !p.Balance.Residual || !p.Balance.Pooled {
		return nil
	}
	var train, evaluation []int
	for k := range p.Pools {
		if p.inEvaluation(k) {
			evaluation = append(evaluation, k)
		} else {
			train = append(train, k)
		}
	}
	var out [][]int
	for _, g := range [][]int{train, evaluation} {
		if len(g) > 0 {
			out = append(out, g)
		}
	}
	return out
}

// groupName names group g of ResidualGroups in the build's streams and
// messages: "joint" or "joint-evaluation".
func (p *Plan) groupName(g int) string {
	if p.inEvaluation(p.ResidualGroups()[g][0]) {
		return "joint-" + evaluationPool
	}
	return "joint"
}

// inEvaluation reports whether pool k is a joint build's evaluation set
// of its fragment.
func (p *Plan) inEvaluation(k int) bool {
	return p.Pools[k].Name == p.poolFragName(k)+"-"+evaluationPool
}

// validatePooled checks that a plan whose residual stages are pooled is
// a joint build whose groups hold one set of each fragment, with pilots
// of one size.
func (p *Plan) validatePooled() error {
	if !p.Balance.Pooled {
		return nil
	}
	if !p.Balance.Residual || !p.Joint() {
		return errors.New("pooled residual stages are for a joint build with the residual stage")
	}
	for _, g := range p.ResidualGroups() {
		frags := map[string]bool{}
		for _, k := range g {
			if frags[p.poolFragName(k)] || p.PilotFor(k) != p.PilotFor(g[0]) {
				return fmt.Errorf("set %s: a group of pooled residual stages holds one set of each fragment, with pilots of one size", p.Pools[k].Name)
			}
			frags[p.poolFragName(k)] = true
		}
	}
	return nil
}

// minPilot is the pilot a small pool gets at least, unless eight times
// its size is less.
const minPilot = 10000

// balanceWords are the words whose counts are surface features.
var balanceWords = []string{"every", "some", "no", "not", "non-", "who", "him", "any", "does", "is", "a", "an"}

// balanceBigrams are the pairs of adjacent balanceWords that the
// fragments' sentences contain ("non-artist" is "non-", "artist"); their
// counts are surface features, since a bag of words and bigrams sees
// where a "non-" or "not" stands.
var balanceBigrams = [][2]string{
	{"every", "non-"}, {"some", "non-"}, {"no", "non-"}, {"any", "non-"}, {"does", "not"}, {"who", "does"},
	{"who", "is"}, {"is", "a"}, {"is", "an"}, {"is", "not"}, {"not", "a"}, {"not", "an"},
}

// balanceWordAt gives each of balanceWords its place; bigramAt[a][b] is
// the place in balanceBigrams of the pair of the words at a and b, or -1.
var balanceWordAt, bigramAt = wordPlaces()

func wordPlaces() (map[string]int, [][]int) {
	at := map[string]int{}
	for k, w := range balanceWords {
		at[w] = k
	}
	pairs := make([][]int, len(balanceWords))
	for a := range pairs {
		pairs[a] = make([]int, len(balanceWords))
		for b := range pairs[a] {
			pairs[a][b] = slices.Index(balanceBigrams, [2]string{balanceWords[a], balanceWords[b]})
		}
	}
	return at, pairs
}

// countWords adds to words and bigrams the counts of balanceWords and
// balanceBigrams in sentence s, whose tokens are its words lower-cased
// (split at white space, as strings.Fields splits), without their
// trailing full stops, and a leading "non-" of a word a token of its
// own. A sentence in ASCII, as every built-in one is, is read in place.
func countWords(s string, words, bigrams []uint32) {
	prev := -1 // the place of the token before, or -1
	token := func(w string) {
		k, ok := balanceWordAt[w]
		if !ok {
			prev = -1
			return
		}
		words[k]++
		if prev >= 0 {
			if b := bigramAt[prev][k]; b >= 0 {
				bigrams[b]++
			}
		}
		prev = k
	}
	word := func(w string) {
		w = strings.TrimRight(w, ".")
		if rest, ok := strings.CutPrefix(w, "non-"); ok {
			token("non-")
			w = rest
		}
		token(w)
	}
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			for _, w := range strings.Fields(strings.ToLower(s)) {
				word(w)
			}
			return
		}
	}
	for i := 0; i < len(s); {
		if asciiSpace(s[i]) {
			i++
			continue
		}
		j, upper := i, false
		for ; j < len(s) && !asciiSpace(s[j]); j++ {
			upper = upper || 'A' <= s[j] && s[j] <= 'Z'
		}
		if w := s[i:j]; upper {
			word(strings.ToLower(w))
		} else {
			word(w)
		}
		i = j
	}
}

// asciiSpace reports whether b is white space in ASCII, as unicode.IsSpace
// says.
func asciiSpace(b byte) bool {
	return b == ' ' || '\t' <= b && b <= '\r'
}

// countNames are the names of the counted features in order: shapes,
// words, bigrams.
func countNames(f fragments.Fragment) []string {
	var names []string
	for _, sh := range f.Shapes() {
		names = append(names, sh.ID())
	}
	names = append(names, balanceWords...)
	for _, bg := range balanceBigrams {
		names = append(names, bg[0]+" "+bg[1])
	}
	return names
}

// shapeIndex maps, per fragment, a shape's id to its place in
// f.Shapes(), for Features, which runs once per candidate.
var shapeIndex = func() map[fragments.Fragment]map[string]int {
	out := map[fragments.Fragment]map[string]int{}
	for _, f := range fragments.All() {
		out[f] = map[string]int{}
		for j, sh := range f.Shapes() {
			out[f][sh.ID()] = j
		}
	}
	return out
}()

// FeatureNames returns the names of Features(f, ·) in order.
func FeatureNames(f fragments.Fragment) []string {
	names := []string{"m", "n1", "n2", "alpha", "beta"}
	for _, c := range countNames(f) {
		names = append(names, "#"+c, "share "+c, "log(1+#"+c+")")
	}
	for _, w := range balanceWords {
		names = append(names, "share² "+w)
	}
	for t := range 10 {
		names = append(names, fmt.Sprintf("existential share in [%d%%, %d%%)", 10*t, 10*t+10))
	}
	for _, k := range []string{"noun", "verb"} {
		names = append(names, "Σ log(1+"+k+" occurrences)", "Σ "+k+" occurrences²", "most occurrences of a "+k, k+"s used")
	}
	return names
}

// Features returns the surface features of record r of fragment f: m (the
// number of sentences), n1, n2, alpha = m/n1 and beta = m/n2 (0 without
// verbs); for every sentence shape of f, every word of balanceWords (a
// word starting with "non-" counts as "non-") and every bigram of
// balanceBigrams, how many there are, their share of the sentences and
// log(1 + the count) (the scale of the audit's bag of words); the squares
// of the words' shares; which tenth the share of existential sentences
// (those starting with "Some") falls in, as ten indicators; and how the
// instance spreads its sentences over its words (usage).
func Features(f fragments.Fragment, r *dataset.Record) []float64 {
	c := countFeatures(f, r)
	return c.appendTo(nil)
}

// featureCounts is what Features computes its values from, in a fifth of
// their memory: a split holds the surface of every candidate of its
// pilots while it fits the balance, and the Features of 100,000 A
// candidates took 189 MB. appendTo computes the values.
type featureCounts struct {
	counts []uint32 // per shape of the fragment, word and bigram
	m      float64  // the number of sentences, at least 1
	n1, n2 int
	tenth  int // the tenth of [0, 1] the share of existential sentences falls in
	usage  [8]float64
}

// countFeatures returns what Features(f, r) is computed from.
func countFeatures(f fragments.Fragment, r *dataset.Record) featureCounts {
	index := shapeIndex[f]
	nc := len(index) + len(balanceWords) + len(balanceBigrams)
	// m is counted: a record is only normalised (M set) when written.
	c := featureCounts{counts: make([]uint32, nc), m: float64(max(len(r.Sentences), 1)), n1: r.N1, n2: r.N2}
	for _, id := range r.Templates {
		if j, ok := index[id]; ok {
			c.counts[j]++
		}
	}
	words := c.counts[len(index) : len(index)+len(balanceWords)]
	bigrams := c.counts[len(index)+len(balanceWords):]
	existential := 0.0
	for _, s := range r.Sentences {
		if strings.HasPrefix(s, "Some ") {
			existential++
		}
		countWords(s, words, bigrams)
	}
	c.tenth = min(int(math.Floor(existential/c.m*10)), 9)
	usage(r, c.usage[:])
	return c
}

// len is the number of Features.
func (c *featureCounts) len() int { return 5 + 3*len(c.counts) + len(balanceWords) + 10 + 8 }

// appendTo appends the Features c counts to x.
func (c *featureCounts) appendTo(x []float64) []float64 {
	n := len(x)
	x = slices.Grow(x, c.len())[:n+c.len()]
	y := x[n:]
	clear(y)
	m := c.m
	y[0], y[1], y[2] = m, float64(c.n1), float64(c.n2)
	if c.n1 > 0 {
		y[3] = m / float64(c.n1)
	}
	if c.n2 > 0 {
		y[4] = m / float64(c.n2)
	}
	nc := len(c.counts)
	for j, k := range c.counts {
		v := float64(k)
		y[5+3*j], y[6+3*j], y[7+3*j] = v, v/m, log1pCount(k)
	}
	sq := y[5+3*nc:]
	words := c.counts[nc-len(balanceBigrams)-len(balanceWords) : nc-len(balanceBigrams)]
	for j, k := range words {
		v := float64(k)
		sq[j] = (v / m) * (v / m)
	}
	y[len(y)-18+c.tenth] = 1
	copy(y[len(y)-8:], c.usage[:])
	return x
}

// log1pSmall holds math.Log1p of the counts below its length, which
// appendTo computes again and again.
var log1pSmall = func() (t [256]float64) {
	for k := range t {
		t[k] = math.Log1p(float64(k))
	}
	return t
}()

// log1pCount returns math.Log1p(float64(k)).
func log1pCount(k uint32) float64 {
	if k < uint32(len(log1pSmall)) {
		return log1pSmall[k]
	}
	return math.Log1p(float64(k))
}

// usage writes how the instance uses its words: for nouns and then verbs,
// the sum over words of log(1 + its occurrences), the sum of the squared
// occurrences, the most occurrences of one word, and how many of the
// drawn words occur at all. A bag of words can sense these (its weights on
// the many word types add up to them), and they bear on the label: words
// used again and again make sentences interact.
func usage(r *dataset.Record, out []float64) {
	occ := map[string]int{}
	for _, f := range r.Formulas {
		start := -1
		for i, c := range f {
			switch {
			case c == '(' && start >= 0:
				occ[f[start:i]]++
				start = -1
			case c >= 'a' && c <= 'z' || c == '_' || c == '-' || c >= '0' && c <= '9':
				if start < 0 {
					start = i
				}
			default:
				start = -1
			}
		}
	}
	// In the words' order, so that the sums are the same every time.
	for k, words := range [][]string{r.Nouns, r.Verbs} {
		for _, w := range words {
			c := float64(occ[w])
			out[4*k] += math.Log1p(c)
			out[4*k+1] += c * c
			out[4*k+2] = math.Max(out[4*k+2], c)
			if c > 0 {
				out[4*k+3]++
			}
		}
	}
}
