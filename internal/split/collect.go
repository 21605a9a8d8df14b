package split

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math/bits"
	"math/rand/v2"
	"os"
	"slices"

	"github.com/nlsat/nlsat/internal/dataset"
)

// Collection. Accepting candidates in index order into the first open
// quota lets the index tell the label: in a stratum where sat is likelier,
// the sat quota fills first and every instance accepted after it is
// unsat. So a stratum instead collects every candidate that passes the
// rules (decided, kept by the surface balance, admitted by some split,
// not a duplicate) until its candidates of each label can fill the
// label's quotas, that is until the rarer label has its quota; then it
// closes, and each label's instances are chosen among all its collected
// candidates in a seeded random order (order). The rarer label keeps
// every candidate, the commoner a uniform sample of its own: the
// accepted instances of both labels are spread alike over the indices
// drawn. The candidates are the same as before, so are the draws. Each
// split file is then written in a second random order (fileOrder) and
// numbered after it, so that neither the file order nor the ids carry the
// label.
//
// The collected candidates' records wait in the pool's spill file (a part
// of the job store); their keys join the dedup sets at once, so no two
// collected candidates are the same instance.

// entry is a collected candidate: what choosing needs, and where its
// record lies in the pool's spill file.
type entry struct {
	k      int32 // its pool
	n      int32 // its line's length in the spill file
	i      int
	label  int8
	mask   uint8 // the splits (bit t) that admit it
	capped bool
	key    uint64 // its place in the seeded random order of choosing
	// place is its place within its block of the file (fileOrder): a
	// second random key, independent of key and of the label.
	place uint64
	off   int64
}

// spillLine is an entry as the spill file holds it.
type spillLine struct {
	I      int             `json:"i"`
	Mask   uint8           `json:"mask"`
	Capped bool            `json:"capped"`
	Record *dataset.Record `json:"record"`
}

// orderStream and fileStream separate the random order in which a
// stratum's instances are chosen, and the order of the files, from the
// sampler's streams and from each other: a file in the order of choosing
// would put the commoner label's instances, chosen from more candidates,
// first.
const (
	orderStream = 0x6f72646572 // "order"
	fileStream  = 0x66696c65   // "file"
	blockStream = 0x626c6f636b // "block"
)

// orderKey is candidate idx's place in the random order of stream.
func orderKey(seed, stream uint64, idx int) uint64 {
	return rand.New(rand.NewPCG(seed^stream, uint64(idx))).Uint64()
}

// spillPart is the index of pool k's spill file among the store's parts.
func (b *builder) spillPart(k int) int { return b.keysPart() + 1 + k }

// mask returns the splits of stratum s that could take c (bit t for
// split t): a quota for the stratum, and the hold-out rules.
func (a *acceptor) mask(s int, c candidate) uint8 {
	var m uint8
	for t, sp := range a.pl.Splits {
		if sp.Pairs[s] > 0 && a.b.admits(a.k, t, c) {
			m |= 1 << t
		}
	}
	return m
}

// collect adds candidate i of stratum i mod len(Strata) to the spill file,
// the stratum's entries and the dedup sets.
func (a *acceptor) collect(i int, c candidate, mask uint8) error {
	b := a.b
	idx := a.k*PoolStride + i
	c.rec.Seed = dataset.SeedString(b.plan.Seed, idx)
	c.rec.Normalize()
	line, err := json.Marshal(spillLine{I: i, Mask: mask, Capped: c.capped, Record: c.rec})
	if err != nil {
		return err
	}
	part := b.store.Part(b.spillPart(a.k))
	e := entry{k: int32(a.k), i: i, label: int8(c.rec.Label), mask: mask, capped: c.capped, key: orderKey(b.plan.Seed, orderStream, idx), off: part.Size(), n: int32(len(line))}
	if err := part.Row(append(line, '\n')); err != nil {
		return err
	}
	a.add(i%len(a.pl.Strata), e)
	return b.addKeys(c)
}

// add adds e to stratum s's entries and counts.
func (a *acceptor) add(s int, e entry) {
	a.entries[s] = append(a.entries[s], e)
	if a.counts[s] == nil {
		a.counts[s] = map[uint8]*[2]int{}
	}
	c := a.counts[s][e.mask]
	if c == nil {
		c = &[2]int{}
		a.counts[s][e.mask] = c
	}
	c[e.label]++
	a.refresh(s)
}

// dedupKey is what the dedup sets hold of a SHA-256 key: its first 128
// bits. Two of a billion distinct instances share them with a chance
// below 10^-20, and the sets, which grow with the candidates collected,
// take half the memory of whole keys. The keys file keeps whole keys.
type dedupKey [16]byte

func keyOf(h [32]byte) dedupKey { return dedupKey(h[:16]) }

// addKeys adds c's keys to the dedup sets and the keys file.
func (b *builder) addKeys(c candidate) error {
	b.exact[keyOf(c.exact)] = struct{}{}
	var both [64]byte
	copy(both[:32], c.exact[:])
	if b.plan.Dedup == DedupRenaming {
		b.renamed[keyOf(c.renamed)] = struct{}{}
		copy(both[32:], c.renamed[:])
	}
	return b.store.Part(b.keysPart()).Row(both[:])
}

// choose assigns the entries of stratum s to splits: per label, in order
// of how few splits admit them (so that the restricted ones find their
// split), then in the random order, each to the first split it may take
// whose quota is open. It returns the chosen entries per split and how
// many of each label found no place.
func (a *acceptor) choose(s int) (chosen [][]entry, left [2]int) {
	chosen = make([][]entry, len(a.pl.Splits))
	es := slices.Clone(a.entries[s])
	slices.SortFunc(es, func(x, y entry) int {
		return cmp.Or(cmp.Compare(bits.OnesCount8(x.mask), bits.OnesCount8(y.mask)), cmp.Compare(x.key, y.key), cmp.Compare(x.i, y.i))
	})
	var taken [][2]int = make([][2]int, len(a.pl.Splits))
	for _, e := range es {
		t := a.firstOpen(s, e, taken)
		if t < 0 {
			left[e.label]++
			continue
		}
		taken[t][e.label]++
		chosen[t] = append(chosen[t], e)
	}
	return chosen, left
}

// firstOpen is the first split that e may take and whose quota for e's
// label is not yet met by taken, or -1.
func (a *acceptor) firstOpen(s int, e entry, taken [][2]int) int {
	for t, sp := range a.pl.Splits {
		if e.mask&(1<<t) != 0 && taken[t][e.label] < sp.Pairs[s] {
			return t
		}
	}
	return -1
}

// fills reports whether the entries of stratum s fill every quota: choose
// on the counts of entries per label and mask, which is what choose's
// outcome depends on.
func (a *acceptor) fills(s int) bool {
	masks := make([]uint8, 0, len(a.counts[s]))
	for m := range a.counts[s] {
		masks = append(masks, m)
	}
	slices.SortFunc(masks, func(x, y uint8) int {
		return cmp.Or(cmp.Compare(bits.OnesCount8(x), bits.OnesCount8(y)), cmp.Compare(x, y))
	})
	for label := range 2 {
		need := make([]int, len(a.pl.Splits))
		for t, sp := range a.pl.Splits {
			need[t] = sp.Pairs[s]
		}
		for _, m := range masks {
			n := a.counts[s][m][label]
			for t := range need {
				if m&(1<<t) != 0 {
					took := min(n, need[t])
					need[t], n = need[t]-took, n-took
				}
			}
		}
		for _, n := range need {
			if n > 0 {
				return false
			}
		}
	}
	return true
}

// close closes stratum s: it counts what each split accepts and what the
// quotas left out.
func (a *acceptor) close(s int) {
	chosen, left := a.choose(s)
	ss := &a.ps.Strata[s]
	for t, es := range chosen {
		for _, e := range es {
			ss.Fill[t][e.label]++
			if e.capped {
				ss.CanonFallbacks++
			}
			a.accepted++
		}
	}
	ss.LabelFull += left[0] + left[1]
	a.full[s].Store(true)
	a.open--
	a.refresh(s)
}

// write writes the split files the pool completes: those whose last
// split is one of the pool's (in a joint build, the last fragment's pool
// writes every fragment's instances).
func (a *acceptor) write() error {
	for _, f := range a.b.fileOf[a.k] {
		if mbs := a.b.files[f].members; mbs[len(mbs)-1][0] == a.k {
			if err := a.b.writeFile(f); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeFile writes split file f: the instances its splits chose, from
// every stratum, in the file order (fileOrder), numbered in that order
// and named by their fragment and split.
func (b *builder) writeFile(f int) error {
	df := b.files[f]
	var es []entry
	for _, mb := range df.members {
		a := b.acceptors[mb[0]]
		if a.stale {
			a.stale = false
			if err := a.reload(); err != nil {
				return err
			}
		}
		for s := range a.pl.Strata {
			chosen, _ := a.choose(s)
			es = append(es, chosen[mb[1]]...)
		}
	}
	for j := range es {
		idx := int(es[j].k)*PoolStride + es[j].i
		es[j].key = orderKey(b.plan.Seed, fileStream, idx)
	}
	digest := b.plan.Digest()
	out := b.store.Part(f)
	step := b.phase("writing "+df.split.Name+".jsonl", len(es))
	for _, e := range nearChanceOrder(b.plan.Seed, es) {
		step()
		spill := b.store.Part(b.spillPart(int(e.k)))
		buf := make([]byte, e.n)
		if _, err := spill.ReadAt(buf, e.off); err != nil {
			return fmt.Errorf("%s: %w", spill.Name, err)
		}
		var l spillLine
		if err := json.Unmarshal(buf, &l); err != nil {
			return fmt.Errorf("%s: %w", spill.Name, err)
		}
		l.Record.ID = dataset.FormatID(b.plan.poolFragName(int(e.k))+"-"+df.split.Name, digest, out.Rows())
		b.line.Reset()
		if err := dataset.NewEncoder(&b.line).Encode(l.Record); err != nil {
			return err
		}
		if err := out.Row(b.line.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// reload reads back the entries pool k collected before the build was
// interrupted, from its spill file.
func (a *acceptor) reload() error {
	b := a.b
	part := b.store.Part(b.spillPart(a.k))
	if part.Size() == 0 {
		return nil
	}
	f, err := os.Open(part.Name)
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(io.LimitReader(f, part.Size()), 1<<16)
	var off int64
	for {
		line, err := r.ReadBytes('\n')
		if err == io.EOF && len(line) == 0 {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", part.Name, err)
		}
		var l spillLine
		if err := json.Unmarshal(line, &l); err != nil {
			return fmt.Errorf("%s: %w", part.Name, err)
		}
		idx := a.k*PoolStride + l.I
		e := entry{k: int32(a.k), i: l.I, label: int8(l.Record.Label), mask: l.Mask, capped: l.Capped, key: orderKey(b.plan.Seed, orderStream, idx), off: off, n: int32(len(line) - 1)}
		a.add(l.I%len(a.pl.Strata), e)
		off += int64(len(line))
	}
}

// nearChanceOrder returns the entries es (their keys set) in a file
// order (fileOrder) whose labels do not come in runs: in a file of
// dataset.OrderMinRecords or more, records Lag apart share their label
// within dataset.OrderTolerance of chance at every lag up to
// dataset.OrderMaxLag. Within a block of ten of each label, two records
// share their label with probability 9/19, so at lag 1 about 47.5% of
// neighbours agree, and with a 3,000-record file's spread of 0.9 points
// some lag of a random order fell below 47% in most files. So the
// places within the blocks are drawn again, from the seed and the
// number of the try (dataset.NearChanceOrder). The blocks, and which
// records they hold, stay as the keys chose them.
func nearChanceOrder(seed uint64, es []entry) []entry {
	return dataset.NearChanceOrder(2, func(e entry) int8 { return e.label & 1 }, func(try int) []entry {
		for j := range es {
			es[j].place = orderKey(seed, blockStream+uint64(try)<<48, int(es[j].k)*PoolStride+es[j].i)
		}
		return fileOrder(es)
	})
}

// fileBlock is the size of the blocks of a split file: each holds
// fileBlock/2 instances of each label.
const fileBlock = 20

// fileOrder returns the order in which a split's entries are written
// (reordering es): random, in permuted blocks. Each label's entries are
// taken in the random order of their keys, fileBlock/2 of each label make
// a block, and a block's entries are written in the random order of their
// places, a second key drawn apart from the first and from the label. So
// every position of the file is sat with probability 1/2 whatever the
// others hold, neither a record's neighbours nor its position within a
// block tell its label, and the first K records of a file are never more
// than fileBlock/2 away from half sat: a user who takes a file's head, or
// shards it by lines, gets a balanced set. (A plain shuffle leaves a head
// of 1,000 more than two standard errors off balance one time in twenty.)
// A block must not be ordered by the first key: both labels' lists are
// sorted by it, and past the first blocks the ranges of their keys no
// longer overlap, so a block would be ten records of one label followed by
// ten of the other. Entries of a label left over when the two labels
// differ in number, which a split built by nlsat never has, end the file
// in key order.
func fileOrder(es []entry) []entry {
	byKey := func(x, y entry) int {
		return cmp.Or(cmp.Compare(x.key, y.key), cmp.Compare(x.k, y.k), cmp.Compare(x.i, y.i))
	}
	byPlace := func(x, y entry) int {
		return cmp.Or(cmp.Compare(x.place, y.place), byKey(x, y))
	}
	// Each label's entries in key order, label 0's first: es itself is
	// sorted, so that a file's entries are held twice at most.
	slices.SortFunc(es, func(x, y entry) int { return cmp.Or(cmp.Compare(x.label&1, y.label&1), byKey(x, y)) })
	n0, _ := slices.BinarySearchFunc(es, int8(1), func(e entry, l int8) int { return cmp.Compare(e.label&1, l) })
	labels := [2][]entry{es[:n0], es[n0:]}
	out := make([]entry, 0, len(es))
	half := fileBlock / 2
	for j := 0; j < min(len(labels[0]), len(labels[1])); j += half {
		start := len(out)
		for _, l := range labels {
			out = append(out, l[j:min(j+half, len(labels[0]), len(labels[1]))]...)
		}
		slices.SortFunc(out[start:], byPlace)
	}
	n := min(len(labels[0]), len(labels[1]))
	rest := append(slices.Clone(labels[0][n:]), labels[1][n:]...)
	slices.SortFunc(rest, byKey)
	return append(out, rest...)
}
