package proof

import (
	"slices"

	"github.com/nlsat/nlsat/internal/fragments"
)

// builder appends steps to a proof, rendering their English.
type builder struct {
	lx *fragments.Lexicon
	p  Proof
	// sentences are the input sentences Given steps repeat.
	sentences []fragments.Sentence
}

// given adds the input sentence s and returns its step.
func (b *builder) given(s int) int {
	sent := b.sentences[s]
	b.p.Steps = append(b.p.Steps, Step{Rule: Given, Sentence: s, Formula: sent.Formula(), English: b.lx.English(sent)})
	return len(b.p.Steps) - 1
}

// add renders st's English and appends it; it returns its index.
func (b *builder) add(st Step) (int, error) {
	st.Sentence = -1
	if st.English == "" {
		e, err := Render(b.lx, st.Formula)
		if err != nil {
			return 0, err
		}
		st.English = e
	}
	b.p.Steps = append(b.p.Steps, st)
	return len(b.p.Steps) - 1, nil
}

// contradiction closes the proof on the cited steps.
func (b *builder) contradiction(cited []int) {
	ps := sortedSteps(cited...)
	b.p.Steps = append(b.p.Steps, Step{Rule: Contradiction, Premises: ps, Sentence: -1, English: contradictionEnglish(len(ps))})
}

// sortedSteps returns the step numbers in increasing order, once each.
func sortedSteps(s ...int) []int {
	out := slices.Clone(s)
	slices.Sort(out)
	return slices.Compact(out)
}
