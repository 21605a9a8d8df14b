package audit

import (
	"fmt"
	"slices"

	"github.com/nlsat/nlsat/internal/textfeat"
)

// batch is a run of consecutive lines of one file and, once ready is
// closed, what process made of them.
type batch struct {
	lines   [][]byte
	lineNos []int
	readErr error // a read error after the last line
	ready   chan struct{}

	items []item
	// loose are the features of the first of items, whose grams hold
	// local keys, until grammar.merge numbers and packs them (nx surface
	// features each).
	loose []loose
	nx    int
	local []string
	// fit is the number of the batch's first records that keep their
	// features; the others keep only what split says.
	fit int
	err error
}

func newBatch() *batch {
	return &batch{ready: make(chan struct{})}
}

// process decodes and checks each line with t, stopping at the first bad
// one, and computes its n-grams. Tokens are numbered within the batch
// (local keys: first token << 32 | second token, numbers from 1, 0 for a
// unigram's second); grammar.merge renumbers them. Each text of a record
// is tokenised apart, its tokens prefixed as the task's Spec says.
func (b *batch) process(t Task, file string) {
	spec := t.Spec()
	ids := map[string]uint32{}
	var keys []uint64
	for k, line := range b.lines {
		var row Row
		err := t.Read(line, &row)
		if err == nil && (row.Label < 0 || row.Label >= len(spec.Labels)) {
			err = fmt.Errorf("record %s: label %d is not one of the task's %d", row.ID, row.Label, len(spec.Labels))
		}
		if err == nil && len(row.X) != len(spec.Features) {
			err = fmt.Errorf("record %s: %d surface features, the task has %d", row.ID, len(row.X), len(spec.Features))
		}
		if err != nil {
			b.err = inputErrorf("%s:%d: %w", file, b.lineNos[k], err)
			return
		}
		frag, err := fragmentNumber(row.Fragment)
		if err != nil {
			b.err = inputErrorf("%s:%d: record %s: %w", file, b.lineNos[k], row.ID, err)
			return
		}
		it := item{label: int8(row.Label), frag: frag, n1: int32(row.N1), n2: int32(row.N2), m: int32(row.M),
			index: trailingNumber(row.Seed, ":"), idNum: trailingNumber(row.ID, "-"), grouped: spec.GroupBySeed,
			mus: int32(row.Core), pair: int8(row.Step) - 1}
		b.items = append(b.items, it)
		if k >= b.fit {
			continue
		}
		l := loose{x: row.X, skel: row.Skeletons, st: row.Stats, patterns: row.Patterns}
		keys = keys[:0]
		for j, text := range row.Texts {
			prefix := ""
			if j < len(spec.Prefixes) {
				prefix = spec.Prefixes[j]
			}
			keys = b.localKeys(text, prefix, ids, keys)
		}
		l.grams, l.counts = localRuns(keys)
		b.loose = append(b.loose, l)
	}
	b.nx = len(spec.Features)
	b.lines = nil
	b.err = b.readErr
}

// localKeys appends to keys the local keys of the unigrams and bigrams of
// text, each token prefixed with prefix.
func (b *batch) localKeys(text, prefix string, ids map[string]uint32, keys []uint64) []uint64 {
	var prev uint64
	textfeat.Tokens(text, func(tok []byte) {
		w := string(tok)
		if prefix != "" {
			w = prefix + w
		}
		id, ok := ids[w]
		if !ok {
			b.local = append(b.local, w)
			id = uint32(len(b.local))
			ids[w] = id
		}
		keys = append(keys, uint64(id)<<32)
		if prev != 0 {
			keys = append(keys, prev<<32|uint64(id))
		}
		prev = uint64(id)
	})
	return keys
}

// localRuns sorts keys and returns each distinct key once with its count.
// The keys are returned in the grams of an item as pairs of uint32 (high,
// low) until merge rewrites them.
func localRuns(keys []uint64) ([]uint32, []uint8) {
	slices.Sort(keys)
	var grams []uint32
	var counts []uint8
	for i := 0; i < len(keys); {
		j := i
		for j < len(keys) && keys[j] == keys[i] {
			j++
		}
		grams = append(grams, uint32(keys[i]>>32), uint32(keys[i]))
		counts = append(counts, uint8(min(j-i, 255)))
		i = j
	}
	return grams, counts
}
