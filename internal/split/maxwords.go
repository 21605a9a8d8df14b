package split

import (
	"fmt"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/phase"
)

// WordLimit records what --max-words did: the limit, the rule that
// applied it and the region's points it dropped.
type WordLimit struct {
	// Words is the most words an instance may have, counted as its text
	// split at spaces (the paper's Table 5).
	Words int `json:"words"`
	// Rule says how a point was judged.
	Rule string `json:"rule"`
	// SentenceWords is the most words one sentence of the fragment can
	// have (fragments.MaxSentenceWords).
	SentenceWords int `json:"sentence_words"`
	// Dropped are the region's points whose instances could be longer.
	Dropped []phase.Point `json:"dropped"`
}

// limitWords keeps the points of the region whose every instance has at
// most words words: those with m·MaxSentenceWords(f) ≤ words, a bound
// that no draw can exceed, so that no stratum's instances are cut or
// filtered by length (which would tie length to the label). It returns
// the points kept and the record of what it dropped; an error if nothing
// is left.
func limitWords(f fragments.Fragment, pts []phase.RegionPoint, words int) ([]phase.RegionPoint, *WordLimit, error) {
	per := fragments.MaxSentenceWords(f)
	wl := &WordLimit{Words: words, SentenceWords: per, Dropped: []phase.Point{},
		Rule: fmt.Sprintf("a point (m, n1, n2) is kept when m × %d ≤ %d, %d being the most words one sentence of %s can have: no instance of a kept point can be longer", per, words, per, f)}
	var kept []phase.RegionPoint
	for _, p := range pts {
		if p.M*per <= words {
			kept = append(kept, p)
		} else {
			wl.Dropped = append(wl.Dropped, p.Point)
		}
	}
	if len(kept) == 0 {
		return nil, nil, fmt.Errorf("--max-words %d: no point of the region fits (each of its instances could have up to m × %d words; the smallest m is %d)", words, per, minM(pts))
	}
	return kept, wl, nil
}

func minM(pts []phase.RegionPoint) int {
	m := pts[0].M
	for _, p := range pts {
		m = min(m, p.M)
	}
	return m
}

// describe is the sentence the card adds to the source of the strata.
func (wl *WordLimit) describe(total int) string {
	return fmt.Sprintf("; --max-words %d dropped %d of the region's %d points (kept: m × %d ≤ %d, so no instance has more than %d words split at spaces)",
		wl.Words, len(wl.Dropped), total, wl.SentenceWords, wl.Words, wl.Words)
}
