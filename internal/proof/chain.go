package proof

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
)

// Why a chain stops being supported (ChainResult.Reason).
const (
	ChainValid           = "valid"              // every step follows, up to a contradiction
	ChainNoSteps         = "no steps"           // no numbered step at all
	ChainUnparsed        = "unparsed"           // the step's English or justification cannot be read
	ChainCitesLater      = "cites a later step" // a premise is the step itself or after it
	ChainWrongSentence   = "wrong sentence"     // a "sentence k" step is not sentence k
	ChainDoesNotFollow   = "does not follow"    // the checker rejects the step
	ChainNoContradiction = "no contradiction"   // every step follows, but none is a contradiction
)

// ChainResult is what CheckChain finds in a chain of thought.
type ChainResult struct {
	// Steps is the number of numbered steps read, up to the first
	// contradiction.
	Steps int `json:"steps"`
	// Contradiction says that the chain claims one: a step's English says
	// "contradiction".
	Contradiction bool `json:"contradiction"`
	// Valid says that every step follows and the last is a contradiction.
	Valid bool `json:"valid"`
	// FirstUnsupported is the number (from 1) of the first step that is
	// not supported, 0 when there is none.
	FirstUnsupported int `json:"first_unsupported"`
	// Reason is one of the Chain… constants, and Detail says more.
	Reason string `json:"reason"`
	Detail string `json:"detail"`
	// Undecided says that the decider could not decide step
	// FirstUnsupported (a timeout or unknown), so the chain's score is
	// unknown, not that the step is unsupported.
	Undecided bool `json:"-"`
}

// stepLine is a numbered line: number, English, then the justification
// Fprint writes ("sentence 3", "by 1, 4", "naming someone new, by 2", …).
var (
	numbered = regexp.MustCompile(`^\s*(\d+)\s*[.):]\s*(.*?)\s*$`)
	justify  = regexp.MustCompile(`(?i)^(.*?)[\s.]*\b(sentence|the world is not empty|naming someone new,?\s*by|chaining|witnessed\s+by|by)\b\s*(\d+(?:\s*(?:,|and|&)\s*\d+)*)?[\s.]*$`)
	number   = regexp.MustCompile(`\d+`)
)

// chainLine is one numbered line of a chain.
type chainLine struct {
	n        int
	english  string
	how      string // the justification's words, lower case, "" when unread
	premises []int  // the numbers it cites, from 1
}

// readChain reads the numbered lines of text, up to and with the first
// that claims a contradiction. Lines before the first step, lines without
// a number after it and the answer line are not steps.
func readChain(text string) (lines []chainLine, contradiction bool) {
	for _, raw := range strings.Split(text, "\n") {
		m := numbered.FindStringSubmatch(raw)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		l := chainLine{n: n, english: m[2]}
		if j := justify.FindStringSubmatch(m[2]); j != nil && (j[3] != "" || strings.EqualFold(j[2], "the world is not empty")) {
			l.english = strings.TrimSpace(j[1])
			if !strings.HasSuffix(l.english, ".") && l.english != "" {
				l.english += "."
			}
			l.how = strings.Join(strings.Fields(strings.ToLower(strings.TrimSuffix(j[2], ","))), " ")
			for _, d := range number.FindAllString(j[3], -1) {
				k, _ := strconv.Atoi(d)
				l.premises = append(l.premises, k)
			}
		}
		lines = append(lines, l)
		if strings.Contains(strings.ToLower(l.english), "contradiction") {
			return lines, true
		}
	}
	return lines, false
}

// CheckChain reads a chain of thought in the text form of Fprint, as a
// model writes it, and checks it step by step with CheckStep against the
// instance's sentences: each step must follow from the steps and
// sentences it cites, up to a step that says "contradiction". It reports
// the first step that does not, and why. A model's spacing, numbering
// punctuation ("3." or "3)"), text around the steps and a missing answer
// line do not matter; a step that cannot be read is unsupported.
func CheckChain(ctx context.Context, b solver.Backend, lx *fragments.Lexicon, sentences []fragments.Sentence, text string) ChainResult {
	lines, contra := readChain(text)
	res := ChainResult{Steps: len(lines), Contradiction: contra}
	if len(lines) == 0 {
		res.Reason = ChainNoSteps
		return res
	}
	steps := make([]Step, 0, len(lines))
	named := 0
	for i, l := range lines {
		s, reason, err := chainStep(lx, sentences, l, i, named)
		if err == nil {
			steps = append(steps, s)
			if err = CheckStep(ctx, b, lx, sentences, steps, i); err != nil {
				reason = ChainDoesNotFollow
			}
		}
		if err != nil {
			res.FirstUnsupported, res.Reason, res.Detail = i+1, reason, err.Error()
			res.Undecided = errors.Is(err, ErrUndecided)
			return res
		}
		if s.Rule == Anyone || s.Rule == Instance {
			named++
		}
	}
	res.Valid, res.Reason = contra, ChainValid
	if !contra {
		res.Reason = ChainNoContradiction
	}
	return res
}

// chainStep turns line l, the i-th (from 0), into a Step with the English
// the checker expects of its formula, or says why it cannot.
func chainStep(lx *fragments.Lexicon, sentences []fragments.Sentence, l chainLine, i, named int) (Step, string, error) {
	s := Step{Sentence: -1}
	switch {
	case l.n != i+1:
		return s, ChainUnparsed, fmt.Errorf("numbered %d where step %d was due", l.n, i+1)
	case l.how == "":
		return s, ChainUnparsed, fmt.Errorf("no justification (\"sentence k\", \"by 1, 2\", …) in %q", l.english)
	}
	for _, k := range l.premises {
		if k > i && l.how != "sentence" {
			return s, ChainCitesLater, fmt.Errorf("cites step %d", k)
		}
		if k < 1 {
			return s, ChainUnparsed, fmt.Errorf("cites step %d", k)
		}
	}
	if l.how != "sentence" {
		s.Premises = premises(l.premises)
	}
	switch l.how {
	case "the world is not empty":
		if err := naming(l.english, named+1); err != nil {
			return s, ChainDoesNotFollow, err
		}
		s.Rule, s.English = Anyone, anyoneEnglish(named+1)
		return s, "", nil
	case "sentence":
		return givenStep(lx, sentences, l)
	}
	s.Rule = map[string]Rule{"chaining": Chain, "witnessed by": Witnessed, "by": Apply}[l.how]
	if strings.HasPrefix(l.how, "naming") {
		s.Rule = Instance
	}
	if strings.Contains(strings.ToLower(l.english), "contradiction") {
		s.Rule, s.English = Contradiction, contradictionEnglish(len(s.Premises))
		return s, "", nil
	}
	f, english, err := conclusion(lx, l.english)
	if err != nil {
		return s, ChainUnparsed, err
	}
	s.Formula, s.English = f, english
	return s, "", nil
}

// namesOnly is the English of a step that the world's not being empty
// justifies: it names an individual and says nothing of it ("Take anyone
// at all; call them #2.", "Take someone; call them #2.", "#2 exists.",
// "There is someone; call them #2.").
var namesOnly = regexp.MustCompile(`(?i)^(?:take\s+(?:anyone|anybody|someone|somebody|something|anything)(?:\s+at\s+all)?\s*[;,:]?\s*call\s+(?:them|it|him|her)\s+#(\d+)|#(\d+)\s+exists|there\s+is\s+(?:someone|somebody|something|an\s+individual)\s*[;,:]?\s*call\s+(?:them|it|him|her)\s+#(\d+))\s*\.?$`)

// naming checks the English of a "the world is not empty" step: it may
// only name an individual, and that must be #k, the next new one.
func naming(english string, k int) error {
	m := namesOnly.FindStringSubmatch(strings.TrimSpace(english))
	if m == nil {
		return fmt.Errorf("%q says more than that there is someone, which is all the world's not being empty gives", english)
	}
	if n, _ := strconv.Atoi(m[1] + m[2] + m[3]); n != k {
		return fmt.Errorf("%q names #%d where a new individual is #%d", english, n, k)
	}
	return nil
}

// givenStep makes a "sentence k" line a Given step, if it says sentence
// k (in any words that parse to its formula).
func givenStep(lx *fragments.Lexicon, sentences []fragments.Sentence, l chainLine) (Step, string, error) {
	s := Step{Rule: Given, Sentence: -1}
	if len(l.premises) != 1 || l.premises[0] > len(sentences) {
		return s, ChainWrongSentence, fmt.Errorf("there is no sentence %s among %d", strings.Trim(fmt.Sprint(l.premises), "[]"), len(sentences))
	}
	k := l.premises[0] - 1
	f, _, err := conclusion(lx, l.english)
	if err != nil {
		return s, ChainUnparsed, err
	}
	if !fol.Equal(f, sentences[k].Formula()) {
		return s, ChainWrongSentence, fmt.Errorf("%q is not sentence %d, %q", l.english, k+1, lx.English(sentences[k]))
	}
	s.Sentence, s.Formula, s.English = k, f, lx.English(sentences[k])
	return s, "", nil
}

// conclusion parses a step's English and returns its formula with the
// English the checker expects: the fragments' sentence, or Render's.
func conclusion(lx *fragments.Lexicon, english string) (fol.Formula, string, error) {
	f, err := ParseConclusion(lx, english)
	if err != nil {
		return nil, "", err
	}
	if sent, err := lx.Parse(strings.Join(strings.Fields(english), " ")); err == nil {
		return f, lx.English(sent), nil
	}
	r, err := Render(lx, f)
	return f, r, err
}

// premises turns cited numbers (from 1) into increasing step indices.
func premises(cited []int) []int {
	out := make([]int, 0, len(cited))
	for _, k := range cited {
		out = append(out, k-1)
	}
	slices.Sort(out)
	return slices.Compact(out)
}
