package proof

import (
	"fmt"

	"github.com/nlsat/nlsat/internal/fragments"
)

func findTableau(lx *fragments.Lexicon, sentences []fragments.Sentence, mus []int, budget Budget) (Proof, error) {
	return Proof{}, fmt.Errorf("%w: no tableau yet", ErrNoProof)
}
