package audit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
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

// item is what the audit keeps of one record.
type item struct {
	label     int8
	fragment  string
	n1, n2, m int
	x         [numFeatures]float64
	grams     []uint32 // n-gram keys (see grammar)
	counts    []uint8  // occurrences of each key, at most 255
	// index is the instance index the record's seed names, idNum the
	// number its id ends in; -1 when there is none.
	index, idNum int
	// skel are the sentences' skeletons, st the structural statistics.
	skel []uint64
	st   [textfeat.NumStats]float64
	// mus is the size of the certified MUS (0 for sat); pair is 1 when
	// the record holds a certified contradictory pair, 0 when it holds
	// none, -1 when it does not say.
	mus  int
	pair int8
	// group is the entailment triple's instance index (the seed's), -1
	// for a sat/unsat record: the records of a group share a fold.
	group int
	// pairs1 and pairs2 are the patterns of the sentence pairs sharing
	// at least one and two content words (see pairPatterns).
	pairs1, pairs2 []uint64
	sentences      []string // until the batch has the pair patterns
}

// split is one file of the dataset.
type split struct {
	name, file string
	items      []item
}

// load reads every split present in dir/data. The n-grams of train define
// the token numbering; tokens first seen in another split are dropped.
// entail says the records are entailment records: the first record of
// train decides (see isEntailment), and every record must then be one.
func load(ctx context.Context, dir string) (splits []*split, gr *grammar, entail bool, err error) {
	if fi, err := os.Stat(dir); err != nil {
		return nil, nil, false, inputErrorf("cannot read dataset: %w", err)
	} else if !fi.IsDir() {
		return nil, nil, false, inputErrorf("cannot read dataset: %s is not a directory", dir)
	}
	gr = newGrammar()
	for i, name := range Splits {
		file := dataset.FindFile(filepath.Join(dir, "data", name))
		f, err := dataset.OpenFile(file)
		if errors.Is(err, fs.ErrNotExist) && i >= requiredSplits {
			continue
		}
		if err != nil {
			return nil, nil, false, inputErrorf("cannot read dataset %s: %w", dir, err)
		}
		s := &split{name: name, file: file}
		if i == 0 {
			entail, err = isEntailment(file)
		}
		if err == nil {
			err = readSplit(ctx, f, s, gr, i == 0, entail)
		}
		f.Close()
		if err != nil {
			return nil, nil, false, err
		}
		splits = append(splits, s)
	}
	return splits, gr, entail, nil
}

// isEntailment says whether the first record of file is an entailment
// record (schema nlsat-entail/1): an object with the keys "premises" and
// "hypothesis", which no sat/unsat record has. A first line that is not
// an object is left to the reader to report.
func isEntailment(file string) (bool, error) {
	f, err := dataset.OpenFile(file)
	if err != nil {
		return false, inputErrorf("cannot read dataset: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var keys map[string]json.RawMessage
		if json.Unmarshal(line, &keys) != nil {
			return false, nil
		}
		_, p := keys["premises"]
		_, h := keys["hypothesis"]
		return p && h, nil
	}
	return false, nil
}

// readSplit reads the records of r into s. Batches of lines are decoded,
// checked and tokenised in parallel (see batch.process); the batches are
// then taken in file order, so token numbers, counts and the first error
// reported do not depend on scheduling.
func readSplit(ctx context.Context, r io.Reader, s *split, gr *grammar, train, entail bool) (err error) {
	ctx, cancel := context.WithCancel(ctx)
	workers := runtime.GOMAXPROCS(0)
	jobs, ordered := make(chan *batch, workers), make(chan *batch, 2*workers)
	var wg sync.WaitGroup
	wg.Add(1 + workers)
	go func() {
		defer wg.Done()
		readBatches(ctx, r, s.file, entail, jobs, ordered)
	}()
	for range workers {
		go func() {
			defer wg.Done()
			for b := range jobs {
				b.process(s.file)
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
	return nil
}

const batchSize = 256

// readBatches splits r into batches of non-blank lines and sends each
// batch first to ordered, then to jobs. A read error ends the last batch.
func readBatches(ctx context.Context, r io.Reader, file string, entail bool, jobs, ordered chan<- *batch) {
	defer close(ordered)
	defer close(jobs)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	b, line := newBatch(entail), 0
	send := func() bool {
		select {
		case ordered <- b:
		case <-ctx.Done():
			return false
		}
		jobs <- b
		b = newBatch(entail)
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
