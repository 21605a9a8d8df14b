package audit

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
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
// past Options.MaxTrain, so that such a record takes a few dozen bytes).
type item struct {
	label     int8
	fragment  string
	n1, n2, m int
	// index is the instance index the record's seed names, idNum the
	// number its id ends in; -1 when there is none.
	index, idNum int
	// mus is the size of the certified MUS (0 for sat); pair is 1 when
	// the record holds a certified contradictory pair, 0 when it holds
	// none, -1 when it does not say.
	mus  int
	pair int8
	// group is the record's group (the seed's instance index, for a
	// task whose records share their seed in groups), -1 for none: the
	// records of a group share a fold.
	group int
	*features
}

// features are what the models read of a record.
type features struct {
	x      []float64 // the task's surface features
	grams  []uint32  // n-gram keys (see grammar)
	counts []uint8   // occurrences of each key, at most 255
	// skel are the sentences' skeletons, st the structural statistics.
	skel []uint64
	st   [textfeat.NumStats]float64
	// patterns are the patterns of the sentence pairs sharing at least
	// one and two content words (Row.Patterns), until grammar.merge
	// replaces them by their numbers among train's patterns (pats).
	// The second set is most often part of the first (a pair sharing two
	// words shares one): merge then keeps it as the mask two, whose bit q
	// says whether pats[0][q] is in it, and pats[1] is nil. Read a set
	// with patternsOf.
	patterns [2][]uint64
	pats     [2][]uint32
	two      []byte
}

// patternsOf returns the numbers of the patterns of set (0 or 1): f's
// own slice, or for a set kept as a mask, its numbers in buf's memory.
func (f *features) patternsOf(set int, buf []uint32) []uint32 {
	if set != 1 || f.two == nil {
		return f.pats[set]
	}
	buf = buf[:0]
	for q, id := range f.pats[0] {
		if f.two[q>>3]&(1<<(q&7)) != 0 {
			buf = append(buf, id)
		}
	}
	return buf
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
