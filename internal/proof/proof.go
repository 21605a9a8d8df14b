package proof

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/nlsat/nlsat/internal/fol"
)

// Rule names the inference a step makes; the package documentation
// defines each one under # Rules.
type Rule string

// The rules of a proof.
const (
	Given         Rule = "given"
	Chain         Rule = "chain"
	Anyone        Rule = "anyone"
	Instance      Rule = "instance"
	Apply         Rule = "apply"
	Witnessed     Rule = "witnessed"
	Contradiction Rule = "contradiction"
)

// rules lists the rules in the order the documentation gives them.
var rules = []Rule{Given, Chain, Anyone, Instance, Apply, Witnessed, Contradiction}

// Step is one line of a proof.
type Step struct {
	// Rule is the inference that makes the step.
	Rule Rule
	// Premises are the earlier steps the rule uses (indices into
	// Proof.Steps, increasing).
	Premises []int
	// Sentence is, for a Given step, the index of the input sentence it
	// repeats; -1 for every other rule.
	Sentence int
	// Formula is the step's conclusion; nil for Contradiction (⊥) and
	// Anyone (which only names an individual). Individuals are the free
	// variables c1, c2, … (#1, #2, … in English).
	Formula fol.Formula
	// English is the conclusion in English: a sentence of the fragments
	// where they can say it (then it parses back to Formula), otherwise
	// the plain English that Render gives.
	English string
}

// Proof is a refutation: steps, each following from the steps it cites
// by its rule, the last a Contradiction.
type Proof struct {
	Steps []Step
}

// Len returns the number of steps, the given sentences included.
func (p Proof) Len() int { return len(p.Steps) }

// Depth returns the length of the longest chain of inferences in p: 0 for
// a Given step, and one more than its deepest premise for any other step;
// the depth of the last step. A proof whose contradiction lies between
// two given sentences has depth 1.
func (p Proof) Depth() int {
	d := make([]int, len(p.Steps))
	for i, s := range p.Steps {
		if s.Rule == Given {
			continue
		}
		d[i] = 1
		for _, j := range s.Premises {
			if j >= 0 && j < i {
				d[i] = max(d[i], d[j]+1)
			}
		}
	}
	if len(d) == 0 {
		return 0
	}
	return d[len(d)-1]
}

// jsonStep is the JSON form of a step: premises and sentence count from 1,
// as in the text form; sentence is 0 for a step that is not Given.
type jsonStep struct {
	Premises []int  `json:"premises"`
	Rule     Rule   `json:"rule"`
	Sentence int    `json:"sentence"`
	Formula  string `json:"formula"`
	English  string `json:"english"`
}

// MarshalJSON writes the steps as an array of objects with the keys
// premises, rule, sentence, formula and english, in that order. Step and
// sentence numbers count from 1; a formula is in fol's text syntax, "⊥"
// for a contradiction and "" for Anyone.
func (p Proof) MarshalJSON() ([]byte, error) {
	out := make([]jsonStep, len(p.Steps))
	for i, s := range p.Steps {
		js := jsonStep{Premises: make([]int, len(s.Premises)), Rule: s.Rule, English: s.English, Formula: FormulaString(s)}
		for k, j := range s.Premises {
			js.Premises[k] = j + 1
		}
		if s.Rule == Given {
			js.Sentence = s.Sentence + 1
		}
		out[i] = js
	}
	return json.Marshal(out)
}

// FormulaString prints a step's formula in fol's text syntax: "⊥" for a
// Contradiction, "" for a step without a formula.
func FormulaString(s Step) string {
	switch {
	case s.Rule == Contradiction:
		return "⊥"
	case s.Formula == nil:
		return ""
	}
	return fol.String(s.Formula)
}

// Fprint writes p as numbered lines a person can follow: each step's
// English and, after it, where it comes from.
func Fprint(w io.Writer, p Proof) error {
	width := 0
	for _, s := range p.Steps {
		width = max(width, len([]rune(s.English)))
	}
	width = min(width, 60)
	var b strings.Builder
	for i, s := range p.Steps {
		pad := max(0, width-len([]rune(s.English)))
		fmt.Fprintf(&b, "%3d. %s%s   %s\n", i+1, s.English, strings.Repeat(" ", pad), reason(s))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// reason says where a step comes from, in words.
func reason(s Step) string {
	cited := make([]string, len(s.Premises))
	for k, j := range s.Premises {
		cited[k] = fmt.Sprint(j + 1)
	}
	from := strings.Join(cited, ", ")
	switch s.Rule {
	case Given:
		return fmt.Sprintf("sentence %d", s.Sentence+1)
	case Anyone:
		return "the world is not empty"
	case Instance:
		return "naming someone new, by " + from
	case Chain:
		return "chaining " + from
	case Witnessed:
		return "witnessed by " + from
	}
	return "by " + from
}
