package job

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nlsat/nlsat/internal/atomicfile"
	"github.com/nlsat/nlsat/internal/inputerr"
	"github.com/nlsat/nlsat/internal/pipeline"
)

// ErrDone is returned by RunShard when its directory already holds the
// same shard, finished and intact.
var ErrDone = errors.New("already done")

// shardWork is the directory, inside a shard's directory, of a shard in
// progress.
const shardWork = ".nlsat-shard"

// line is one item of a shard's stream file.
type line struct {
	I int             `json:"i"`
	R json.RawMessage `json:"r"`
}

// streamFile is the file of stream name in a shard directory: JSON
// lines, compressed (see Part).
func streamFile(name string) string { return name + ".jsonl.gz" }

// RunShard computes shard m.Index of m.Count of the job c into dir: the
// items i ≡ m.Index (mod m.Count) of every stream, from its Start and
// below its ShardLimit, that its Drawn allows, each written as a JSON
// line {"i": i, "r": item} to dir/NAME.jsonl.gz (gzip members, which
// depend only on the lines, not on the run's checkpoints or
// interruptions). At the end it writes the
// manifest m (with the files' checksums) as dir/shard.json. Emit, Missing
// and End are not used; Take, if set, chooses which items are written.
//
// The shard checkpoints into dir/.nlsat-shard and resumes there. A dir
// that already holds this shard (same kind, digest, index, count and
// oversample, checksums intact) gives ErrDone; one that holds another
// shard, or other files, is an error unless force.
func RunShard[W, R any](ctx context.Context, c Config[W, R], dir string, m Manifest, force bool) (*Manifest, error) {
	m.Schema = ManifestSchema
	if old, err := Read(dir); err == nil {
		same := old.Kind == m.Kind && old.Digest == m.Digest && old.Index == m.Index && old.Count == m.Count && old.Oversample == m.Oversample
		switch {
		case same && old.Done() && Verify(dir, old) == nil:
			return old, ErrDone
		case same && !old.Done():
			// A shard that waited: it goes on from its checkpoint.
		case !force:
			return nil, inputerr.Errorf("%s already holds a shard; choose another --out or pass --force", dir)
		}
	}
	work := filepath.Join(dir, shardWork)
	var parts []string
	for _, st := range c.Streams {
		parts = append(parts, filepath.Join(work, streamFile(st.Name)))
	}
	ckpt := filepath.Join(work, "state.json")
	if !exists(ckpt) {
		if err := emptyDir(dir, force); err != nil {
			return nil, err
		}
		if err := os.MkdirAll(work, 0o755); err != nil {
			return nil, inputerr.Errorf("cannot write %s: %w", dir, unwrapPath(err))
		}
	}
	// A checkpoint's position is an index into the streams: their names,
	// in order, are part of what it must match.
	names := make([]string, len(c.Streams))
	for k, st := range c.Streams {
		names[k] = st.Name
	}
	store, err := OpenStore(ckpt, fmt.Sprintf("%s/%d/%d/%g/%s/gzip", m.Digest, m.Index, m.Count, m.Oversample, strings.Join(names, ",")), parts)
	if err != nil {
		return nil, err
	}
	defer store.Close()
	s := &sharder[W, R]{Config: c, dir: dir, m: m, store: store}
	if c.Load != nil && store.Resumed() {
		if err := c.Load(store.State); err != nil {
			return nil, err
		}
	}
	if err := s.run(ctx); err != nil {
		if errors.Is(err, ErrWaiting) {
			return s.publish()
		}
		return nil, err
	}
	return s.finish()
}

// emptyDir refuses a directory that holds anything but a shard's work
// directory, unless force.
func emptyDir(dir string, force bool) error {
	entries, err := os.ReadDir(dir)
	if err != nil || force {
		return nil // a directory that is not there yet is empty
	}
	for _, e := range entries {
		if e.Name() != shardWork {
			return inputerr.Errorf("%s is not empty; choose another --out or pass --force to write into it", dir)
		}
	}
	return nil
}

// sharder is a RunShard in progress.
type sharder[W, R any] struct {
	Config[W, R]
	dir     string // the shard directory
	m       Manifest
	store   *Store
	through int // the stream the shard waits at (ErrWaiting)
}

// slot is one index of a shard's stream: computed, or left out by Drawn.
type slot[R any] struct {
	r     R
	drawn bool
}

func (s *sharder[W, R]) run(ctx context.Context) error {
	pos := s.store.Position()
	last := time.Now()
	every := s.Every
	if every == 0 {
		every = DefaultEvery
	}
	for k := pos.Stream; k < len(s.Streams); k++ {
		st := s.Streams[k]
		if s.Ready != nil {
			ok, err := s.Ready(k)
			if err != nil {
				return err
			}
			if !ok {
				s.through = k
				return ErrWaiting
			}
		}
		if err := s.drop(k); err != nil {
			return err
		}
		from := st.Start
		if k == pos.Stream {
			from = max(from, pos.Next)
		}
		first, slots := s.slots(st, from)
		_, total := s.slots(st, st.Start)
		part := s.store.Part(k)
		next := Position{Stream: k, Next: first}
		err := pipeline.Run(ctx, pipeline.Config[W, slot[R]]{
			Workers: s.Workers, Limit: slots, New: s.New, Close: s.Close,
			Do: func(ctx context.Context, w W, j int) (slot[R], error) {
				i := first + j*s.m.Count
				if st.Drawn != nil && !st.Drawn(i) {
					return slot[R]{}, nil
				}
				r, err := s.Do(ctx, w, k, i)
				return slot[R]{r, true}, err
			},
			Emit: func(j int, sl slot[R]) (bool, error) {
				i := first + j*s.m.Count
				next.Next = i + s.m.Count
				if sl.drawn && (s.Take == nil || s.Take(k, i, sl.r)) {
					if err := writeLine(part, i, sl.r); err != nil {
						return true, err
					}
					if s.Progress != nil {
						s.Progress(k, total-slots+j+1, total, sl.r)
					}
				}
				if time.Since(last) >= every {
					last = time.Now()
					return false, s.store.Save(next, s.state())
				}
				return false, nil
			},
		})
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			return withSave(err, s.store.Save(next, s.state()))
		}
		if err := part.End(); err != nil {
			return err
		}
		if err := s.store.Save(Position{Stream: k + 1}, s.state()); err != nil {
			return err
		}
	}
	return nil
}

// drop empties the parts of the streams before k that are spent
// (Config.Spent), saves the store so, and then removes their contents
// and published files: the shard's storage holds only what a merge will
// still read.
func (s *sharder[W, R]) drop(k int) error {
	if s.Spent == nil {
		return nil
	}
	dropped := 0
	for j := range k {
		part := s.store.Part(j)
		if part.Spent() || !s.Spent(j) {
			continue
		}
		if err := part.drop(); err != nil {
			return err
		}
		dropped++
	}
	if dropped > 0 {
		// The position is the last one saved: nothing was drawn since,
		// in this run, but the streams before k.
		if err := s.store.Save(s.store.Position(), s.state()); err != nil {
			return err
		}
	}
	// Every spent part, so that a run interrupted here ends the work.
	for j := range k {
		if !s.store.Part(j).Spent() {
			continue
		}
		if err := s.store.Part(j).cut(); err != nil {
			return err
		}
		if err := os.Remove(filepath.Join(s.dir, streamFile(s.Streams[j].Name))); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// report returns the manifest's entry for the file of stream k.
func (s *sharder[W, R]) report(k int) (FileReport, error) {
	name, part := streamFile(s.Streams[k].Name), s.store.Part(k)
	if part.Spent() {
		return FileReport{Set: s.Streams[k].Name, Path: name, Rows: part.Rows(), Spent: true}, nil
	}
	fr, err := Report(s.dir, name, part.Rows())
	fr.Set = s.Streams[k].Name
	return fr, err
}

// state returns the job's state for the checkpoint (Config.State).
func (s *sharder[W, R]) state() any {
	if s.State == nil {
		return nil
	}
	return s.State()
}

// slots returns the first index of this shard at or after from in
// stream st, and the number of its indices from there to the shard limit.
func (s *sharder[W, R]) slots(st Stream, from int) (first, n int) {
	count := s.m.Count
	first = from + ((s.m.Index-from)%count+count)%count
	if st.ShardLimit > first {
		n = (st.ShardLimit - first + count - 1) / count
	}
	return first, n
}

// writeLine writes item r of index i as a line of part.
func writeLine[R any](part *Part, i int, r R) error {
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	b, err := json.Marshal(line{I: i, R: data})
	if err != nil {
		return err
	}
	return part.Row(append(b, '\n'))
}

// publish puts the files of the streams the shard has drawn, all those
// before the one it waits at, where a merge reads them, beside a manifest
// that says so (Manifest.Through), and returns the manifest with
// ErrWaiting. The checkpoint stays: the shard goes on from it. Each file
// is a link to its part (a copy where links fail), which no later run
// writes to: a part grows only while its stream is drawn.
func (s *sharder[W, R]) publish() (*Manifest, error) {
	s.m.Files, s.m.Through = nil, s.through
	for k := range s.through {
		part := s.store.Part(k)
		if !part.Spent() {
			if err := linkOrCopy(part.Name, filepath.Join(s.dir, streamFile(s.Streams[k].Name))); err != nil {
				return nil, err
			}
		}
		fr, err := s.report(k)
		if err != nil {
			return nil, err
		}
		s.m.Files = append(s.m.Files, fr)
	}
	if err := s.writeManifest(); err != nil {
		return nil, err
	}
	return &s.m, ErrWaiting
}

// linkOrCopy makes dst a hard link to src, or else a copy of it,
// replacing what dst held. (A dst that is src already stays as it is: a
// rename between two links of one file does nothing.)
func linkOrCopy(src, dst string) error {
	if a, err := os.Stat(src); err == nil {
		if b, err := os.Stat(dst); err == nil && os.SameFile(a, b) {
			return nil
		}
	}
	tmp := dst + ".tmp"
	os.Remove(tmp)
	if err := os.Link(src, tmp); err != nil {
		data, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		if err := os.WriteFile(tmp, data, 0o644); err != nil {
			return err
		}
	}
	return os.Rename(tmp, dst)
}

// writeManifest writes the shard's manifest into its directory.
func (s *sharder[W, R]) writeManifest() error {
	data, err := json.MarshalIndent(s.m, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(s.dir, ManifestFile), append(data, '\n'))
}

// finish moves the stream files into place and writes the manifest.
func (s *sharder[W, R]) finish() (*Manifest, error) {
	final := make([]string, len(s.Streams))
	for k, st := range s.Streams {
		if !s.store.Part(k).Spent() { // a spent part stays, empty, in the work directory
			final[k] = filepath.Join(s.dir, streamFile(st.Name))
		}
	}
	if err := s.store.Commit(final); err != nil {
		return nil, err
	}
	s.m.Files, s.m.Through = nil, 0
	for k := range s.Streams {
		fr, err := s.report(k)
		if err != nil {
			return nil, err
		}
		s.m.Files = append(s.m.Files, fr)
	}
	if err := s.writeManifest(); err != nil {
		return nil, err
	}
	return &s.m, os.RemoveAll(filepath.Join(s.dir, shardWork))
}

// Shards are the finished shards of one run, checked and ordered by
// index, ready to be merged.
type Shards struct {
	// Dirs are the shard directories by index.
	Dirs []string
	// Manifest is shard 0's manifest: the kind, configuration and plan
	// every shard shares.
	Manifest *Manifest
	// Through is the number of streams every shard has drawn (see
	// Manifest.Through); a merge waits at the first stream past it.
	Through   int
	manifests []*Manifest
	files     []*os.File
	cursor    []*bufio.Reader
	peeked    []*line
	name      string
}

// OpenShards reads and checks the shard directories of one run: one kind,
// one configuration, every index from 0 to N−1 exactly once, every file
// intact. What is wrong with them is a inputerr.Error.
func OpenShards(dirs []string) (*Shards, error) {
	if len(dirs) == 0 {
		return nil, inputerr.Errorf("no shard directories given")
	}
	first, err := Read(dirs[0])
	if err != nil {
		return nil, &inputerr.Error{Err: err}
	}
	byIndex, ms, err := Open(slices.Clone(dirs), first.Kind)
	if err != nil {
		return nil, &inputerr.Error{Err: err}
	}
	through := math.MaxInt
	for _, m := range ms {
		if !m.Done() {
			through = min(through, m.Through)
		}
	}
	return &Shards{Dirs: byIndex, Manifest: ms[0], Through: through, manifests: ms}, nil
}

// open opens every shard's file of stream name for reading.
func (s *Shards) open(name string) error {
	s.close()
	s.name = name
	for j, dir := range s.Dirs {
		for _, f := range s.manifests[j].Files {
			if f.Set == name && f.Spent {
				s.close()
				return inputerr.Errorf("%s: shard %d removed its %s once a merge had read it; only the merge that read it can go on, from its checkpoint (to merge the shards anew, run them again from scratch)", dir, j, f.Path)
			}
		}
		name := filepath.Join(dir, streamFile(name))
		f, err := os.Open(name)
		if err != nil {
			s.close()
			return err
		}
		s.files = append(s.files, f)
		var r io.Reader = f
		switch z, err := gzip.NewReader(bufio.NewReaderSize(f, 1<<16)); {
		case err == nil:
			r = z
		case errors.Is(err, io.EOF): // no lines: no member either
		default:
			s.close()
			return fmt.Errorf("%s: %w", name, err)
		}
		s.cursor = append(s.cursor, bufio.NewReaderSize(r, 1<<16))
		s.peeked = append(s.peeked, nil)
	}
	return nil
}

// parseLine reads a line of a stream file. A line as writeLine writes
// it, {"i":I,"r":ITEM}, is cut apart without decoding ITEM, which the
// item's own decoder checks; any other form goes through encoding/json.
func parseLine(b []byte) (*line, error) {
	rest, ok := bytes.CutPrefix(bytes.TrimRight(b, "\n"), []byte(`{"i":`))
	if ok {
		n := 0
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		item, ok := bytes.CutPrefix(rest[n:], []byte(`,"r":`))
		canonical := n == 1 || n > 1 && rest[0] != '0' // as JSON writes a number
		if i, err := strconv.Atoi(string(rest[:n])); ok && err == nil && canonical && bytes.HasSuffix(item, []byte("}")) {
			return &line{I: i, R: item[:len(item)-1]}, nil
		}
	}
	var l line
	if err := json.Unmarshal(b, &l); err != nil {
		return nil, err
	}
	return &l, nil
}

func (s *Shards) close() {
	for _, f := range s.files {
		f.Close()
	}
	s.files, s.cursor, s.peeked = nil, nil, nil
}

// take decodes item i of the open stream from its shard (i mod N) into
// r and reports whether the shard holds it. Lines before i are passed
// over: a merge that did not need an item does not ask for it.
func (s *Shards) take(i int, r any) (bool, error) {
	j := i % len(s.Dirs)
	for {
		if s.peeked[j] == nil {
			b, err := s.cursor[j].ReadBytes('\n')
			if err != nil && !errors.Is(err, io.EOF) {
				return false, fmt.Errorf("%s: %w", s.files[j].Name(), err)
			}
			if len(b) == 0 {
				return false, nil
			}
			l, err := parseLine(b)
			if err != nil {
				return false, fmt.Errorf("%s: not a line of a shard: %w", s.files[j].Name(), err)
			}
			s.peeked[j] = l
		}
		l := s.peeked[j]
		switch {
		case l.I < i:
			s.peeked[j] = nil
		case l.I == i:
			s.peeked[j] = nil
			if err := json.Unmarshal(l.R, r); err != nil {
				return false, fmt.Errorf("%s: item %d: %w", s.files[j].Name(), i, err)
			}
			return true, nil
		default:
			return false, nil
		}
	}
}
