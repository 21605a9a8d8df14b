package audit

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/textfeat"
)

// batch is a run of consecutive lines of one file and, once ready is
// closed, what process made of them.
type batch struct {
	lines   [][]byte
	lineNos []int
	readErr error // a read error after the last line
	ready   chan struct{}

	items []item // grams hold local keys until grammar.merge
	local []string
	// pairNames are the texts of the batch's sentence-pair patterns.
	pairNames map[uint64]string
	err       error
	// entail says the lines are entailment records (schema nlsat-entail/1).
	entail bool
}

func newBatch(entail bool) *batch {
	return &batch{ready: make(chan struct{}), entail: entail, pairNames: map[uint64]string{}}
}

// slimRecord holds the fields of a record the audit uses; decoding only
// these skips building the formulas, nouns and verbs.
type slimRecord struct {
	ID        string   `json:"id"`
	Fragment  string   `json:"fragment"`
	Text      string   `json:"text"`
	Sentences []string `json:"sentences"`
	Label     int      `json:"label"`
	LabelText string   `json:"label_text"`
	M         int      `json:"m"`
	N1        int      `json:"n1"`
	N2        int      `json:"n2"`
	Alpha     float64  `json:"alpha"`
	Beta      float64  `json:"beta"`
	Seed      string   `json:"seed"`
	// For the difficulty profile: the MUS, and the contradictory pair
	// (nil when the record does not say).
	Certificate struct {
		MUS []int `json:"mus"`
	} `json:"certificate"`
	Difficulty struct {
		UnsatPair []int `json:"unsat_pair"`
	} `json:"difficulty"`
}

// process decodes and checks each line, stopping at the first bad one,
// and computes its surface features and n-grams. Tokens are numbered
// within the batch (local keys: first token << 32 | second token, numbers
// from 1, 0 for a unigram's second); grammar.merge renumbers them. An
// entailment record's hypothesis is tokenised apart from its premises,
// its tokens prefixed with hypothesisPrefix.
func (b *batch) process(file string) {
	ids := map[string]uint32{}
	var keys []uint64
	for k, line := range b.lines {
		decode := decodeInstance
		if b.entail {
			decode = decodeEntail
		}
		it, texts, err := decode(line)
		if err != nil {
			b.err = inputErrorf("%s:%d: %w", file, b.lineNos[k], err)
			return
		}
		if b.entail {
			n := len(it.sentences) - 1
			it.pairs1, it.pairs2 = textfeat.PremisePatterns(it.sentences[:n], it.sentences[n], b.pairNames)
		} else {
			it.pairs1, it.pairs2 = textfeat.PairPatterns(it.sentences, b.pairNames)
		}
		it.sentences = nil
		keys = keys[:0]
		for j, text := range texts {
			prefix := ""
			if j > 0 {
				prefix = hypothesisPrefix
			}
			keys = b.localKeys(text, prefix, ids, keys)
		}
		it.grams, it.counts = localRuns(keys)
		b.items = append(b.items, it)
	}
	b.lines = nil
	b.err = b.readErr
}

// decodeInstance decodes and checks a sat/unsat record, and returns its
// item (without n-grams) and its text.
func decodeInstance(line []byte) (item, []string, error) {
	var sr slimRecord
	if err := json.Unmarshal(line, &sr); err != nil {
		return item{}, nil, fmt.Errorf("not a record: %w", err)
	}
	rec := &dataset.Record{ID: sr.ID, Fragment: sr.Fragment, Text: sr.Text, Sentences: sr.Sentences, Label: sr.Label,
		LabelText: sr.LabelText, M: sr.M, N1: sr.N1, N2: sr.N2, Alpha: dataset.Float(sr.Alpha), Beta: dataset.Float(sr.Beta)}
	if err := rec.Validate(); err != nil {
		return item{}, nil, err
	}
	if rec.Label == dataset.LabelAbsent {
		return item{}, nil, fmt.Errorf("record %s has no label (-1); the audit needs labelled records", rec.ID)
	}
	text := recordText(rec)
	it := item{label: int8(rec.Label), fragment: rec.Fragment, n1: rec.N1, n2: rec.N2, m: rec.M, x: surface(rec, text),
		index: trailingNumber(sr.Seed, ":"), idNum: trailingNumber(sr.ID, "-"), group: -1}
	it.skel, it.st = textfeat.Structure(rec.Sentences)
	it.sentences = rec.Sentences
	it.mus, it.pair = len(sr.Certificate.MUS), -1
	if p := sr.Difficulty.UnsatPair; p != nil {
		it.pair = int8(min(len(p), 1))
	}
	return it, []string{text}, nil
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
