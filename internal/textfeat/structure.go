package textfeat

import (
	"cmp"
	"hash/fnv"
	"math"
	"slices"
	"sync"
)

// Structure. Besides word counts a model can see an instance's shape: which
// sentence skeletons it has (the sentence with its nouns written N and its
// verbs V: "every N is not a N ."), how often each noun and verb occurs,
// whether a noun occurs both negated and plain, whether it is the subject
// of both a universal and an existential sentence. The gbm-structure
// baseline is gradient boosting on these, computed from the text alone
// (the vocabulary tells nouns from verbs); it sees the interactions and
// thresholds a linear model misses.

// Indices of the structural statistics; NumStats is their number.
const (
	sSentences = iota
	sWords
	sNouns
	sVerbs
	sNounMax
	sNounMean
	sNounSD
	sNounOnce
	sBothPolarities
	sBothPolaritiesShare
	sBothQuantities
	sVerbMax
	sVerbMean
	sHim
	NumStats
)

var structNames = [NumStats]string{"sentences", "words", "nouns", "verbs", "noun-degree-max", "noun-degree-mean",
	"noun-degree-sd", "nouns-once", "nouns-negated-and-plain", "share-negated-and-plain", "nouns-universal-and-existential",
	"verb-degree-max", "verb-degree-mean", "him"}

// What a skeleton writes for a noun, a verb and after every word.
var nounMark, verbMark, space = []byte("N"), []byte("V"), []byte{' '}

// skeletonWord reports whether token w is one of the words a skeleton
// keeps. (A switch on the bytes as a string compares without making
// one, where a map lookup of the same conversion hashes it.)
func skeletonWord(w []byte) bool {
	switch string(w) {
	case "every", "some", "no", "any", "not", "non-", "who", "him", "is", "a", "an", "does", ".":
		return true
	}
	return false
}

// StructureNames are the names of Structure's statistics, in order.
func StructureNames() []string { return structNames[:] }

// Structure returns the skeleton of each sentence, as a hash (the
// sentence with its nouns written N and its verbs V), and the structural
// statistics of the whole (StructureNames): what the audit's
// gbm-structure baseline sees of an instance. nlsat split's surface
// balance models the same.
func Structure(sentences []string) (skeletons []uint64, stats [NumStats]float64) {
	var st [NumStats]float64
	type use struct{ n, neg, plain, univ, exist int }
	nouns, verbs := map[string]*use{}, map[string]*int{}
	sk := make([]uint64, 0, len(sentences))
	for _, s := range sentences {
		h := fnv.New64a()
		first, universal, neg, subject, det := true, false, false, true, false
		Tokens(s, func(tok []byte) {
			// A token is made a string only as a new key of nouns or
			// verbs: comparisons and lookups of string(tok) make none.
			st[sWords]++
			if first {
				universal = string(tok) == "every" || string(tok) == "no"
				first = false
			}
			switch {
			case skeletonWord(tok):
				h.Write(tok)
				neg, det = string(tok) == "non-", determiner(tok)
				if string(tok) == "him" {
					st[sHim]++
				}
			case det:
				h.Write(nounMark)
				u := nouns[string(tok)]
				if u == nil {
					u = &use{}
					nouns[string(tok)] = u
				}
				u.n++
				if neg {
					u.neg++
				} else {
					u.plain++
				}
				if subject {
					if universal {
						u.univ++
					} else {
						u.exist++
					}
					subject = false
				}
				neg, det = false, false
			default:
				h.Write(verbMark)
				c := verbs[string(tok)]
				if c == nil {
					c = new(int)
					verbs[string(tok)] = c
				}
				*c++
				neg = false
			}
			h.Write(space)
		})
		sk = append(sk, h.Sum64())
	}
	st[sSentences] = float64(len(sentences))
	st[sNouns], st[sVerbs] = float64(len(nouns)), float64(len(verbs))
	var sum, sq float64
	for _, u := range nouns {
		d := float64(u.n)
		sum, sq = sum+d, sq+d*d
		st[sNounMax] = max(st[sNounMax], d)
		if u.n == 1 {
			st[sNounOnce]++
		}
		if u.neg > 0 && u.plain > 0 {
			st[sBothPolarities]++
		}
		if u.univ > 0 && u.exist > 0 {
			st[sBothQuantities]++
		}
	}
	if n := float64(len(nouns)); n > 0 {
		st[sNounMean] = sum / n
		st[sNounSD] = math.Sqrt(max(0, sq/n-st[sNounMean]*st[sNounMean]))
		st[sBothPolaritiesShare] = st[sBothPolarities] / n
	}
	for _, c := range verbs {
		st[sVerbMax] = max(st[sVerbMax], float64(*c))
		st[sVerbMean] += float64(*c)
	}
	if len(verbs) > 0 {
		st[sVerbMean] /= float64(len(verbs))
	}
	return sk, st
}

// sortByCount orders keys by their count, largest first, then by key.
func sortByCount(keys []uint64, count map[uint64]int) {
	slices.SortFunc(keys, func(a, b uint64) int { return cmp.Or(cmp.Compare(count[b], count[a]), cmp.Compare(a, b)) })
}

// determiner reports whether token w is one of the words a noun follows
// in every template: a content word after one of them is a noun, any
// other content word a verb form. The grammar alone tells them apart,
// whatever the vocabulary.
func determiner(w []byte) bool {
	switch string(w) {
	case "every", "some", "no", "any", "a", "an", "non-":
		return true
	}
	return false
}

// Skeletons are the sentence skeletons a model counts: the k commonest
// of its training records, most common first (ties by hash). Its JSON
// form is the list of hashes.
type Skeletons struct {
	Keys      []uint64 `json:"keys"`
	index     map[uint64]int
	indexOnce sync.Once
}

// CommonSkeletons returns the k commonest skeletons of rows (each row the
// skeletons of one record, as Structure returns them).
func CommonSkeletons(rows [][]uint64, k int) *Skeletons {
	freq := map[uint64]int{}
	for _, row := range rows {
		for _, h := range row {
			freq[h]++
		}
	}
	return CommonOf(freq, k)
}

// CommonOf returns the k commonest skeletons of those freq counts, as
// CommonSkeletons does of the rows it counted.
func CommonOf(freq map[uint64]int, k int) *Skeletons {
	keys := make([]uint64, 0, len(freq))
	for h := range freq {
		keys = append(keys, h)
	}
	sortByCount(keys, freq)
	return &Skeletons{Keys: keys[:min(k, len(keys))]}
}

// Count adds to out[j] the number of sentences of a record (its skeletons
// skel) whose skeleton is Keys[j]; out has len(Keys) entries. It may be
// called from many goroutines at once.
func (c *Skeletons) Count(skel []uint64, out []float64) {
	c.indexOnce.Do(func() {
		c.index = make(map[uint64]int, len(c.Keys))
		for j, h := range c.Keys {
			c.index[h] = j
		}
	})
	for _, h := range skel {
		if j, ok := c.index[h]; ok {
			out[j]++
		}
	}
}
