package canon

import (
	"slices"

	"github.com/nlsat/nlsat/internal/fragments"
)

// A sentence code packs a sentence into 63 bits, most significant first:
// the shape (10 bits), the polarities of O, P and Q (3 bits), then one
// 10-bit field per role O, P, Q, R, S holding a word number plus one, or 0
// for an empty role. Nouns and verbs are numbered separately. With
// numbers from the input the codes are exact sentence identities; with the
// numbers of a discrete partition they are a leaf's encoding; with cell
// numbers they are the colour of a sentence during refinement.
const (
	roles     = 5
	fieldBits = 10
	maxWords  = 1<<fieldBits - 2 // the largest word number that fits
	fieldMask = 1<<fieldBits - 1
	negShift  = roles * fieldBits
	baseMask  = (1<<63 - 1) &^ (1<<negShift - 1) // shape and polarity bits
)

func roleShift(r int) uint { return uint(fieldBits * (roles - 1 - r)) }

// shapeCode packs a shape into 10 bits; ok is false for fields out of the
// ranges the fragments package defines.
func shapeCode(sh fragments.Shape) (code uint64, ok bool) {
	t, q, c := int(sh.Template), int(sh.Quant), int(sh.Clause)
	if t < 0 || t > 15 || q < 0 || q > 7 || c < 0 || c > 7 {
		return 0, false
	}
	return uint64(t<<6 | q<<3 | c), true
}

// graph is an instance's set of sentences as a hypergraph. Vertices 0…k−1
// are the nouns used, k…n−1 the verbs used, numbered in order of first use.
type graph struct {
	k, n     int
	nounIx   map[string]int32
	verbIx   map[string]int32
	codes    []uint64   // the distinct sentences, input numbering, sorted
	base     []uint64   // per sentence: shape and polarity bits
	fill     [][5]int32 // per sentence: the vertex in each role, or -1
	occStart []int32    // vertex v occurs at occ[occStart[v]:occStart[v+1]]
	occ      []int32    // occurrences as sentence<<3 | role
	next     []int32    // scratch for decode
}

// build reads sentences into g. It reports false if they cannot be
// encoded: a shape field out of range or more than maxWords nouns or verbs.
func (g *graph) build(ss []fragments.Sentence) bool {
	if g.nounIx == nil {
		g.nounIx, g.verbIx = map[string]int32{}, map[string]int32{}
	}
	clear(g.nounIx)
	clear(g.verbIx)
	g.codes = g.codes[:0]
	for _, s := range ss {
		sc, ok := shapeCode(s.Shape)
		if !ok {
			return false
		}
		c := sc<<(negShift+3) | uint64(negBits(s))<<negShift
		for r, w := range [...]string{s.O.Noun, s.P.Noun, s.Q.Noun, s.R, s.S} {
			if w == "" {
				continue
			}
			ix := g.nounIx
			if r >= 3 {
				ix = g.verbIx
			}
			i, seen := ix[w]
			if !seen {
				i = int32(len(ix))
				ix[w] = i
			}
			c |= uint64(i+1) << roleShift(r)
		}
		g.codes = append(g.codes, c)
	}
	if len(g.nounIx) > maxWords || len(g.verbIx) > maxWords {
		return false
	}
	slices.Sort(g.codes)
	g.codes = slices.Compact(g.codes)
	g.k, g.n = len(g.nounIx), len(g.nounIx)+len(g.verbIx)
	g.decode()
	return true
}

// decode fills base, fill and the occurrence lists from codes.
func (g *graph) decode() {
	m := len(g.codes)
	g.base = slices.Grow(g.base[:0], m)[:m]
	g.fill = slices.Grow(g.fill[:0], m)[:m]
	g.occStart = slices.Grow(g.occStart[:0], g.n+1)[:g.n+1]
	clear(g.occStart)
	for i, c := range g.codes {
		g.base[i] = c & baseMask
		for r := range roles {
			v := int32(c>>roleShift(r)&fieldMask) - 1
			if v >= 0 && r >= 3 {
				v += int32(g.k)
			}
			g.fill[i][r] = v
			if v >= 0 {
				g.occStart[v+1]++
			}
		}
	}
	for v := range g.n {
		g.occStart[v+1] += g.occStart[v]
	}
	total := int(g.occStart[g.n])
	g.occ = slices.Grow(g.occ[:0], total)[:total]
	next := append(g.next[:0], g.occStart[:g.n]...)
	g.next = next
	for i, f := range g.fill {
		for r, v := range f {
			if v >= 0 {
				g.occ[next[v]] = int32(i)<<3 | int32(r)
				next[v]++
			}
		}
	}
}

// encode writes into dst the codes of the sentences with each vertex v
// replaced by num(v), and returns dst. num must number nouns and verbs
// separately from 0.
func (g *graph) encode(dst []uint64, num []int32) []uint64 {
	dst = dst[:0]
	for i, f := range g.fill {
		c := g.base[i]
		for r, v := range f {
			if v >= 0 {
				c |= uint64(num[v]+1) << roleShift(r)
			}
		}
		dst = append(dst, c)
	}
	return dst
}
