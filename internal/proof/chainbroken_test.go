package proof

import (
	"context"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver/native"
)

// issueSentences are the sentences of the hand-written chains below.
var issueSentences = []string{
	"Every scholar is a poet.",
	"Every poet loves some musician.",
	"Some scholar does not love any musician.",
}

// issueChain is a valid chain over issueSentences; the cases edit it.
const issueChain = `1. Every scholar is a poet.   sentence 1
2. Every poet loves some musician.   sentence 2
3. Some scholar does not love any musician.   sentence 3
4. #1 is a scholar and #1 does not love any musician.   naming someone new, by 3
5. #1 is a poet.   by 1, 4
6. #1 loves some musician.   by 2, 5
7. These two cannot both be true: a contradiction.   by 4, 6
`

// TestCheckChainHandWritten checks hand-written chains, each broken in one
// way, and that the first unsupported step is the one reported.
func TestCheckChainHandWritten(t *testing.T) {
	lx := fragments.Default()
	b := native.New(native.Options{})
	for _, c := range []struct {
		name   string
		sents  []string
		chain  string
		step   int
		reason string
	}{
		{"gold", issueSentences, issueChain, 0, ChainValid},
		{"the world is not empty, saying more, uncited", issueSentences, `1. Every scholar is a poet.   sentence 1
2. Every poet loves some musician.   sentence 2
3. Some scholar does not love any musician.   sentence 3
4. #1 is a scholar and #1 does not love any musician.   naming someone new, by 3
5. #2 is a musician and #2 is not a poet.   the world is not empty
6. #1 is a poet.   by 1, 4
7. #1 loves some musician.   by 2, 6
8. These two cannot both be true: a contradiction.   by 4, 7
`, 5, ChainDoesNotFollow},
		{"the world is not empty, saying more, cited", issueSentences, `1. Every scholar is a poet.   sentence 1
2. Every poet loves some musician.   sentence 2
3. #1 is a scholar and #1 does not love any musician.   the world is not empty
4. #1 is a poet.   by 1, 3
5. #1 loves some musician.   by 2, 4
6. These two cannot both be true: a contradiction.   by 3, 5
`, 3, ChainDoesNotFollow},
		{"the world is not empty, only naming, uncited", issueSentences, `1. Every scholar is a poet.   sentence 1
2. Every poet loves some musician.   sentence 2
3. Some scholar does not love any musician.   sentence 3
4. #1 is a scholar and #1 does not love any musician.   naming someone new, by 3
5. Take anyone at all; call them #2.   the world is not empty
6. #1 is a poet.   by 1, 4
7. #1 loves some musician.   by 2, 6
8. These two cannot both be true: a contradiction.   by 4, 7
`, 0, ChainValid},
		{"the world is not empty, reusing an individual", issueSentences, `1. Every scholar is a poet.   sentence 1
2. Every poet loves some musician.   sentence 2
3. Some scholar does not love any musician.   sentence 3
4. #1 is a scholar and #1 does not love any musician.   naming someone new, by 3
5. #1 exists.   the world is not empty
6. #1 is a poet.   by 1, 4
7. #1 loves some musician.   by 2, 6
8. These two cannot both be true: a contradiction.   by 4, 7
`, 5, ChainDoesNotFollow},
		{"naming an individual already named", issueSentences, `1. Every scholar is a poet.   sentence 1
2. Every poet loves some musician.   sentence 2
3. Some scholar does not love any musician.   sentence 3
4. Take anyone at all; call them #1.   the world is not empty
5. #1 is a scholar and #1 does not love any musician.   naming someone new, by 3
6. #1 is a poet.   by 1, 5
7. #1 loves some musician.   by 2, 6
8. These two cannot both be true: a contradiction.   by 5, 7
`, 5, ChainDoesNotFollow},
		{"cite a later step", issueSentences, strings.Replace(issueChain, "by 1, 4", "by 1, 6", 1), 5, ChainCitesLater},
		{"cite the step itself", issueSentences, strings.Replace(issueChain, "by 1, 4", "by 1, 5", 1), 5, ChainCitesLater},
		{"wrong sentence text", issueSentences, strings.Replace(issueChain, "1. Every scholar is a poet.", "1. Every poet is a scholar.", 1), 1, ChainWrongSentence},
		{"wrong sentence number", issueSentences, strings.Replace(issueChain, "sentence 2", "sentence 3", 1), 2, ChainWrongSentence},
		{"an existential used as a universal", issueSentences, strings.Replace(issueChain, "#1 loves some musician.   by 2, 5", "#1 loves every musician.   by 2, 5", 1), 6, ChainDoesNotFollow},
		{"an existential applied, not named", issueSentences, strings.Replace(issueChain, "naming someone new, by 3", "by 3", 1), 4, ChainDoesNotFollow},
		{"a witness for the wrong individual", issueSentences, strings.Replace(issueChain,
			"4. #1 is a scholar and #1", "4. #2 is a scholar and #2", 1), 4, ChainDoesNotFollow},
		{"a conclusion about the wrong individual", issueSentences, strings.Replace(issueChain, "5. #1 is a poet.", "5. #2 is a poet.", 1), 5, ChainDoesNotFollow},
		{"a contradiction that is not one", issueSentences, strings.Replace(issueChain, "a contradiction.   by 4, 6", "a contradiction.   by 4, 5", 1), 7, ChainDoesNotFollow},
		{"a reflexive step that does not follow", []string{
			"Every scholar admires every poet.",
			"Some scholar is a baker.",
			"No baker admires any baker.",
		}, `1. Some scholar is a baker.   sentence 2
2. #1 is a scholar and #1 is a baker.   naming someone new, by 1
3. Every scholar admires every poet.   sentence 1
4. #1 admires #1.   by 3, 2
5. No baker admires any baker.   sentence 3
6. #1 does not admire #1.   by 5, 2
7. These two cannot both be true: a contradiction.   by 4, 6
`, 4, ChainDoesNotFollow},
		{"a chain with no contradiction", issueSentences, strings.Split(issueChain, "7. ")[0], 0, ChainNoContradiction},
	} {
		t.Run(c.name, func(t *testing.T) {
			sents := parseAll(t, c.sents...)
			got := CheckChain(context.Background(), b, lx, sents, c.chain)
			t.Logf("%s: %s", got.Reason, got.Detail)
			if got.FirstUnsupported != c.step || got.Reason != c.reason || got.Valid != (c.reason == ChainValid) {
				t.Errorf("got step %d, %s (%s), valid %v; want step %d, %s\n%s", got.FirstUnsupported, got.Reason, got.Detail, got.Valid, c.step, c.reason, c.chain)
			}
		})
	}
}
