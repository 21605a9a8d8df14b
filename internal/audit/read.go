package audit

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/inputerr"
	"github.com/nlsat/nlsat/internal/textfeat"
)

// inputErrorf marks a failure caused by the dataset rather than by the
// program (inputerr.Error).
var inputErrorf = inputerr.Errorf

// Splits lists the files an audit reads from DIR/data, in report order;
// the first three must exist.
var Splits = []string{"train", "validation", "test", "generalisation", "zero-shot"}

const requiredSplits = 3

// item is what the audit keeps of one record: what the checks of a whole
// file read, and the features the models read (nil for a train record
// past Options.MaxTrain, so that such a record takes 48 bytes). A large
// train file holds hundreds of thousands, so its fields are as narrow as
// the values they hold.
type item struct {
	*features
	// index is the instance index the record's seed names, idNum the
	// number its id ends in; -1 when there is none.
	index, idNum int
	n1, n2, m    int32
	// mus is the size of the certified MUS (0 for sat).
	mus   int32
	label int8
	// pair is 1 when the record holds a certified contradictory pair, 0
	// when it holds none, -1 when it does not say.
	pair int8
	// frag is the number of the record's fragment among fragmentNames.
	frag uint8
	// grouped says that the records of the task share their seed in
	// groups (Spec.GroupBySeed): see group.
	grouped bool
}

// group is the record's group (the seed's instance index, for a task
// whose records share their seed in groups), -1 for none: the records of
// a group share a fold.
func (it *item) group() int {
	if !it.grouped {
		return -1
	}
	return max(it.index, 0)
}

// fragment is the name of the record's fragment.
func (it *item) fragment() string {
	fragmentNames.RLock()
	defer fragmentNames.RUnlock()
	return fragmentNames.names[it.frag]
}

// fragmentNames numbers the names of fragments the records give, for
// item.frag. There are a handful (S, W, V, Z, A), shared by every audit
// of the process.
var fragmentNames struct {
	sync.RWMutex
	ids   map[string]uint8
	names []string
}

// fragmentNumber returns name's number among fragmentNames, numbering it
// if new; it fails past 256 names.
func fragmentNumber(name string) (uint8, error) {
	fragmentNames.RLock()
	id, ok := fragmentNames.ids[name]
	fragmentNames.RUnlock()
	if ok {
		return id, nil
	}
	fragmentNames.Lock()
	defer fragmentNames.Unlock()
	if id, ok := fragmentNames.ids[name]; ok {
		return id, nil
	}
	if len(fragmentNames.names) > math.MaxUint8 {
		return 0, fmt.Errorf("fragment %q: the audit reads at most %d fragment names", name, math.MaxUint8+1)
	}
	if fragmentNames.ids == nil {
		fragmentNames.ids = map[string]uint8{}
	}
	id = uint8(len(fragmentNames.names))
	fragmentNames.ids[name] = id
	fragmentNames.names = append(fragmentNames.names, name)
	return id, nil
}

// loose are a record's features as batch.process reads them, each in a
// slice of its own, until grammar.merge numbers them and packs them
// (pack).
type loose struct {
	x      []float64 // the task's surface features
	grams  []uint32  // n-gram keys (see grammar)
	counts []uint8   // occurrences of each key, at most 255
	// skel are the sentences' skeletons, st the structural statistics.
	skel []uint64
	st   [textfeat.NumStats]float64
	// patterns are the patterns of the sentence pairs sharing at least
	// one and two content words (Row.Patterns), until grammar.merge
	// replaces them by their numbers among train's patterns (pats), each
	// set in increasing order. The second set is most often part of the
	// first (a pair sharing two words shares one): merge then keeps it as
	// the mask two, whose bit q says whether pats[0][q] is in it, and
	// pats[1] is nil.
	patterns [2][]uint64
	pats     [2][]uint32
	two      []byte
}

// setPatterns sets the numbers of l's two sets of patterns, sorting
// them, the second as a mask over the first when it lies in it (maskOf).
func (l *loose) setPatterns(p0, p1 []uint32) {
	slices.Sort(p0)
	slices.Sort(p1)
	l.pats = [2][]uint32{p0, p1}
	if l.two = maskOf(p1, p0); l.two != nil {
		l.pats[1] = nil // an eighth of a byte for each of pats[0], not four bytes for each of its own
	}
}

// features are what the models read of a record, packed: its values lie
// in its batch's block, at the offsets below, where a struct of nine
// slices cost a record 216 bytes of headers and the rounding of seven
// allocations (the structs alone were a quarter of what 200,000 S
// records held). Read them with the methods named for them; a span of
// length 0 also stands for values let go.
type features struct {
	b *block
	// x is the offset in b.f64 of the task's surface features (b.nx of
	// them) and, after them, the structural statistics.
	x uint32
	// skel are the numbers of the sentences' skeletons (b.skels), in
	// b.skel; grams the n-gram keys (see grammar), in b.grams, and counts
	// the offset in b.counts of their occurrences (at most 255 each).
	skel, grams span
	counts      uint32
	// pats are the numbers among train's patterns of the patterns of the
	// sentence pairs sharing at least one and at least two content words,
	// in b.pats, packed (textfeat.PackedNumbers: in increasing order,
	// about two bytes a number, where four held 150 MB of make run's A
	// train). The second set is most often part of the first (a pair
	// sharing two words shares one): it is then kept as a mask at offset
	// two in b.two, whose bit q says whether pats[0]'s q-th is in it, and
	// pats[1] is empty; two is noMask otherwise. Read a set with
	// patternsOf.
	pats [2]span
	two  uint32
}

// span is where a record's values lie in an array of its block: n values
// from off, or for its patterns n bytes.
type span struct{ off, n uint32 }

const noMask = math.MaxUint32

// block holds the values of the features of a batch's records, one array
// per type.
type block struct {
	nx     int // surface features per record
	f64    []float64
	skel   []uint32
	skels  *skeletonTable
	grams  []uint32
	counts []uint8
	pats   []byte
	two    []byte
}

func (f *features) xs() []float64 { return f.b.f64[f.x : int(f.x)+f.b.nx : int(f.x)+f.b.nx] }

// st returns the structural statistics.
func (f *features) st() []float64 {
	lo := int(f.x) + f.b.nx
	return f.b.f64[lo : lo+textfeat.NumStats : lo+textfeat.NumStats]
}

// skeletons returns the sentences' skeletons, in buf's memory.
func (f *features) skeletons(buf []uint64) []uint64 {
	buf = buf[:0]
	for _, id := range f.b.skel[f.skel.off : f.skel.off+f.skel.n] {
		buf = append(buf, f.b.skels.keys[id])
	}
	return buf
}

// skeletonTable numbers the sentence skeletons of a dataset: a record
// holds its own as these numbers, four bytes each rather than eight (a
// sentence has one; a record of fragment A has some 30).
type skeletonTable struct {
	ids  map[uint64]uint32
	keys []uint64 // by number
}

func newSkeletonTable() *skeletonTable { return &skeletonTable{ids: map[uint64]uint32{}} }

func (t *skeletonTable) number(key uint64) uint32 {
	id, ok := t.ids[key]
	if !ok {
		id = uint32(len(t.keys))
		t.ids[key] = id
		t.keys = append(t.keys, key)
	}
	return id
}

func (f *features) gramKeys() []uint32 {
	if f.grams.n == 0 {
		return nil // also once the block's grams are let go
	}
	return f.b.grams[f.grams.off : f.grams.off+f.grams.n : f.grams.off+f.grams.n]
}

func (f *features) gramCounts() []uint8 {
	if f.grams.n == 0 {
		return nil
	}
	return f.b.counts[f.counts : f.counts+f.grams.n : f.counts+f.grams.n]
}

// dropGrams lets the record's n-grams go: they read as empty from then
// on. Once every record of a block has, the block's arrays of grams and
// counts may go too.
func (f *features) dropGrams() { f.grams.n = 0 }

// masked says whether the second set of patterns is kept as a mask.
func (f *features) masked() bool { return f.two != noMask }

// patternsOf returns the numbers of the patterns of set (0 or 1), in
// increasing order, in buf's memory (nothing once they are let go).
func (f *features) patternsOf(set int, buf []uint32) []uint32 {
	buf = buf[:0]
	if set != 1 || !f.masked() {
		s := f.pats[set]
		if s.n == 0 {
			return buf // none, or let go, and its block's perhaps too
		}
		return textfeat.PackedNumbers(f.b.pats[s.off : s.off+s.n]).AppendTo(buf)
	}
	s := f.pats[0]
	all := textfeat.PackedNumbers(f.b.pats[s.off : s.off+s.n]).AppendTo(buf)
	buf = all[:0]
	for q, id := range all { // buf[j] is written after all[q] is read, j ≤ q
		if f.b.two[int(f.two)+q>>3]&(1<<(q&7)) != 0 {
			buf = append(buf, id)
		}
	}
	return buf
}

// dropPatterns lets the record's patterns of set go, and for the second
// set its mask.
func (f *features) dropPatterns(set int) {
	f.pats[set].n = 0
	if set == 1 {
		f.two = noMask
	}
}

// releasePatterns lets the patterns of the record's block go, once each
// of its records has let its own go (dropPatterns); f may be nil.
func (f *features) releasePatterns() {
	if f == nil {
		return
	}
	if f.pats[0].n != 0 || f.pats[1].n != 0 || f.masked() {
		panic("audit: a block's patterns let go while a record of it holds some")
	}
	f.b.pats, f.b.two = nil, nil
}

// pack returns the features of ls, nx surface features each, packed in
// one block, their skeletons numbered in skels.
func pack(ls []loose, nx int, skels *skeletonTable) []features {
	b := &block{nx: nx, skels: skels}
	var nf, nu, ng, nc, np, nt int
	for i := range ls {
		l := &ls[i]
		nf += nx + textfeat.NumStats
		nu += len(l.skel)
		ng += len(l.grams)
		nc += len(l.counts)
		np += textfeat.PackedSize(l.pats[0]) + textfeat.PackedSize(l.pats[1])
		nt += len(l.two)
	}
	b.f64, b.skel = make([]float64, 0, nf), make([]uint32, 0, nu)
	b.grams, b.counts = make([]uint32, 0, ng), make([]uint8, 0, nc)
	b.pats, b.two = make([]byte, 0, np), make([]byte, 0, nt)
	put := func(to *[]uint32, v []uint32) span {
		s := span{uint32(len(*to)), uint32(len(v))}
		*to = append(*to, v...)
		return s
	}
	fs := make([]features, len(ls))
	for i := range ls {
		l, f := &ls[i], &fs[i]
		if len(l.x) != nx || len(l.counts) != len(l.grams) {
			panic("audit: a record's features do not have the sizes of its batch's")
		}
		f.b, f.x, f.counts, f.two = b, uint32(len(b.f64)), uint32(len(b.counts)), noMask
		b.f64 = append(append(b.f64, l.x...), l.st[:]...)
		f.skel = span{uint32(len(b.skel)), uint32(len(l.skel))}
		for _, key := range l.skel {
			b.skel = append(b.skel, skels.number(key))
		}
		f.grams = put(&b.grams, l.grams)
		b.counts = append(b.counts, l.counts...)
		for k, ps := range l.pats {
			off := uint32(len(b.pats))
			b.pats = textfeat.AppendPacked(b.pats, ps)
			f.pats[k] = span{off, uint32(len(b.pats)) - off}
		}
		if l.two != nil {
			f.two = uint32(len(b.two))
			b.two = append(b.two, l.two...)
		}
	}
	return fs
}

// maskOf returns the mask of sub in all, as features.two, when the
// numbers sub are all among all in the same order, and nil otherwise
// (or when sub is empty).
func maskOf(sub, all []uint32) []byte {
	if len(sub) == 0 {
		return nil
	}
	mask, j := make([]byte, (len(all)+7)/8), 0
	for q, id := range all {
		if j < len(sub) && sub[j] == id {
			mask[q>>3] |= 1 << (q & 7)
			j++
		}
	}
	if j < len(sub) {
		return nil
	}
	return mask
}

// split is one file of the dataset. Its first fitted items carry their
// features; those after (train's beyond Options.MaxTrain) only what the
// checks of the whole file read: label, stratum, seed, id, certificate.
type split struct {
	name, file string
	items      []item
	fitted     int
}

// fitItems returns the items that carry their features: what the models
// are fitted to.
func (s *split) fitItems() []item { return s.items[:s.fitted] }

// load reads every split present in dir/data, records of t. The n-grams
// of train define the token numbering; tokens first seen in another split
// are dropped. Of train, only the first maxTrain records keep their
// features (split.fitted).
func load(ctx context.Context, t Task, dir string, maxTrain int) (splits []*split, gr *grammar, err error) {
	if fi, err := os.Stat(dir); err != nil {
		return nil, nil, inputErrorf("cannot read dataset: %w", err)
	} else if !fi.IsDir() {
		return nil, nil, inputErrorf("cannot read dataset: %s is not a directory", dir)
	}
	gr = newGrammar()
	for i, name := range Splits {
		file := dataset.FindFile(filepath.Join(dir, "data", name))
		f, err := dataset.OpenFile(file)
		if errors.Is(err, fs.ErrNotExist) && i >= requiredSplits {
			continue
		}
		if err != nil {
			return nil, nil, inputErrorf("cannot read dataset %s: %w", dir, err)
		}
		s := &split{name: name, file: file}
		fit := math.MaxInt
		if i == 0 {
			fit = maxTrain
		}
		err = readSplit(ctx, f, t, s, gr, i == 0, fit)
		f.Close()
		if err != nil {
			return nil, nil, err
		}
		splits = append(splits, s)
	}
	return splits, gr, nil
}

// readSplit reads the records of r into s, the first fit of them with
// their features. Batches of lines are decoded, checked and tokenised in
// parallel (see batch.process); the batches are then taken in file order,
// so token numbers, counts and the first error reported do not depend on
// scheduling.
func readSplit(ctx context.Context, r io.Reader, t Task, s *split, gr *grammar, train bool, fit int) (err error) {
	ctx, cancel := context.WithCancel(ctx)
	workers := runtime.GOMAXPROCS(0)
	jobs, ordered := make(chan *batch, workers), make(chan *batch, 2*workers)
	var wg sync.WaitGroup
	wg.Add(1 + workers)
	go func() {
		defer wg.Done()
		readBatches(ctx, r, s.file, fit, jobs, ordered)
	}()
	for range workers {
		go func() {
			defer wg.Done()
			for b := range jobs {
				b.process(t, s.file)
				close(b.ready)
			}
		}()
	}
	defer func() {
		cancel()
		for range ordered {
		}
		wg.Wait()
	}()
	for b := range ordered {
		<-b.ready
		if b.err != nil {
			return b.err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		gr.merge(b, train)
		s.items = append(s.items, b.items...)
	}
	if len(s.items) == 0 {
		return inputErrorf("%s: no records", s.file)
	}
	s.fitted = min(len(s.items), fit)
	return nil
}

const batchSize = 256

// readBatches splits r into batches of non-blank lines and sends each
// batch first to ordered, then to jobs. A read error ends the last batch.
// The records from the fit-th on are to be read without their features.
func readBatches(ctx context.Context, r io.Reader, file string, fit int, jobs, ordered chan<- *batch) {
	defer close(ordered)
	defer close(jobs)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	b, line, records := newBatch(), 0, 0
	b.fit = fit
	send := func() bool {
		records += len(b.lines) // counted before a worker may take the batch
		select {
		case ordered <- b:
		case <-ctx.Done():
			return false
		}
		jobs <- b
		b = newBatch()
		b.fit = max(0, fit-records)
		return true
	}
	for sc.Scan() {
		line++
		if t := bytes.TrimSpace(sc.Bytes()); len(t) > 0 {
			b.lines, b.lineNos = append(b.lines, bytes.Clone(t)), append(b.lineNos, line)
		}
		if len(b.lines) == batchSize && !send() {
			return
		}
	}
	if err := sc.Err(); err != nil {
		b.readErr = inputErrorf("%s:%d: %w", file, line+1, err)
	}
	if len(b.lines) > 0 || b.readErr != nil {
		send()
	}
}
