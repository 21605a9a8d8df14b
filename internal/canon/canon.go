package canon

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/nlsat/nlsat/internal/fragments"
)

// MaxNodes is the number of partitions Key refines for one instance before
// it gives up and returns the fallback key (see the package documentation,
// # Pruning and the cap).
const MaxNodes = 1 << 18

// Key prefixes. A canonical key and a fallback key never compare equal.
const (
	canonicalKey = 'C'
	fallbackKey  = 'F'
	exactKey     = 'E'
)

// Form is a canonical key with an account of the search that produced it.
type Form struct {
	Key    string // the key Key returns
	Capped bool   // Key is the fallback key: the search hit MaxNodes, or inst cannot be encoded
	Nodes  int    // partitions refined, the root included
	Leaves int    // discrete partitions reached
	Auts   int    // automorphisms found (and kept for pruning)
}

var capHits atomic.Int64

// CapHits returns how many times in this process Key or Canonical fell back
// to the exact key because a search hit MaxNodes.
func CapHits() int64 { return capHits.Load() }

// Key returns the canonical key of inst: two instances have the same Key
// iff they are isomorphic, that is, the same fragment and the same set of
// sentences up to a renaming of nouns and a renaming of verbs (package
// documentation, # Definition). The key is binary; see Digest.
func Key(inst fragments.Instance) string { return Canonical(inst).Key }

// Canonical computes Key(inst) and reports how the search went.
func Canonical(inst fragments.Instance) Form { return canonical(inst, MaxNodes) }

func canonical(inst fragments.Instance, maxNodes int) Form {
	s := pool.Get().(*searcher)
	defer pool.Put(s)
	if !s.g.build(inst.Sentences) {
		return fallback(inst, Form{})
	}
	s.run(maxNodes)
	f := Form{Nodes: s.nodes, Leaves: s.leaves, Auts: len(s.auts)}
	if s.capped {
		return fallback(inst, f)
	}
	key := make([]byte, 1, 2+8*len(s.best.codes))
	key[0] = canonicalKey
	key = append(key, byte(inst.Fragment))
	for _, c := range s.best.codes {
		key = binary.BigEndian.AppendUint64(key, c)
	}
	f.Key = string(key)
	return f
}

// fallback is the key of an instance the search gave up on, or one too
// large to encode: its sentences as written, marked.
func fallback(inst fragments.Instance, f Form) Form {
	capHits.Add(1)
	f.Capped = true
	f.Key = string(fallbackKey) + ExactKey(inst)
	return f
}

var pool = sync.Pool{New: func() any { return new(searcher) }}

// ExactKey returns a key of inst's fragment and set of sentences as
// written: two instances have the same ExactKey iff they have the same
// fragment and the same sentences, word for word, in any order (a sentence
// written twice counts once). The key is binary; see Digest.
func ExactKey(inst fragments.Instance) string {
	var buf []byte
	spans := make([][2]int, len(inst.Sentences))
	for i, s := range inst.Sentences {
		spans[i][0] = len(buf)
		buf = appendSentence(buf, s)
		spans[i][1] = len(buf)
	}
	text := func(sp [2]int) []byte { return buf[sp[0]:sp[1]] }
	slices.SortFunc(spans, func(a, b [2]int) int { return bytes.Compare(text(a), text(b)) })
	spans = slices.CompactFunc(spans, func(a, b [2]int) bool { return bytes.Equal(text(a), text(b)) })
	key := make([]byte, 0, 2+len(buf))
	key = append(key, exactKey, byte(inst.Fragment))
	for _, sp := range spans {
		key = append(key, buf[sp[0]:sp[1]]...)
	}
	return string(key)
}

// appendSentence appends a self-delimiting encoding of s: the three shape
// fields, the polarities, then each role's word with its length.
func appendSentence(b []byte, s fragments.Sentence) []byte {
	b = append(b, byte(s.Template), byte(s.Quant), byte(s.Clause), negBits(s))
	for _, w := range [...]string{s.O.Noun, s.P.Noun, s.Q.Noun, s.R, s.S} {
		b = binary.AppendUvarint(b, uint64(len(w)))
		b = append(b, w...)
	}
	return b
}

func negBits(s fragments.Sentence) byte {
	var b byte
	for i, t := range [...]fragments.Term{s.O, s.P, s.Q} {
		if t.Neg {
			b |= 4 >> i
		}
	}
	return b
}

// Digest returns the SHA-256 of a key in hex, a printable stand-in for the
// key in records (equal keys give equal digests; distinct keys collide only
// with SHA-256's negligible probability).
func Digest(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}
