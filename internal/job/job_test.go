package job

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// toy is a job of two streams: "squares" holds i² for i < 40 (a shard
// draws only the even ones), "rest" runs from 100 until its consumer has
// seen 25 items. Its output is the lines it emits, kept in a part.
type toy struct {
	out    []string
	seen   int
	ends   []int
	failAt int // Emit fails on this index of "squares" (0: never)
}

type item struct {
	K, I, V int
}

func (t *toy) config(store *Store) Config[int, item] {
	return Config[int, item]{
		Streams: []Stream{
			{Name: "squares", Limit: 40, ShardLimit: 40, Drawn: func(i int) bool { return i%2 == 0 }},
			{Name: "rest", Start: 100, Limit: -1, ShardLimit: 200},
		},
		Workers: 3,
		New:     func() (int, error) { return 0, nil },
		Do:      func(_ context.Context, _ int, k, i int) (item, error) { return item{k, i, i * i}, nil },
		Emit: func(k, i int, r item) (bool, error) {
			if k == 0 && t.failAt > 0 && i == t.failAt {
				return true, errors.New("emit failed")
			}
			line := fmt.Sprintf("%d:%d=%d\n", k, i, r.V)
			t.out = append(t.out, line)
			if store != nil {
				if err := store.Part(0).Row([]byte(line)); err != nil {
					return true, err
				}
			}
			if k == 1 {
				t.seen++
			}
			return k == 1 && t.seen == 25, nil
		},
		Missing: func(k, i int) (item, error) { return item{k, i, -1}, nil },
		End:     func(k int) error { t.ends = append(t.ends, k); return nil },
		Store:   store,
		State:   func() any { return t.seen },
	}
}

func TestRunInOrder(t *testing.T) {
	var tj toy
	if err := Run(context.Background(), tj.config(nil)); err != nil {
		t.Fatal(err)
	}
	if len(tj.out) != 40+25 || tj.out[3] != "0:3=9\n" || tj.out[40] != "1:100=10000\n" || tj.out[64] != "1:124=15376\n" {
		t.Errorf("got %d lines: %q ...", len(tj.out), tj.out[:5])
	}
	if !slices.Equal(tj.ends, []int{0, 1}) {
		t.Errorf("End called for %v", tj.ends)
	}
}

// TestRunResumes stops a run with a failing Emit and resumes it from its
// store: the part ends in the bytes of an uninterrupted run.
func TestRunResumes(t *testing.T) {
	dir := t.TempDir()
	want := func() string {
		var tj toy
		if err := Run(context.Background(), tj.config(nil)); err != nil {
			t.Fatal(err)
		}
		return strings.Join(tj.out, "")
	}()
	open := func() *Store {
		s, err := OpenStore(filepath.Join(dir, "ckpt.json"), "d1", []string{filepath.Join(dir, "part")})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := open()
	first := toy{failAt: 17}
	c := first.config(s)
	c.Every = -1 // checkpoint after every item
	if err := Run(context.Background(), c); err == nil || !strings.Contains(err.Error(), "emit failed") {
		t.Fatalf("got %v, want the Emit error", err)
	}
	s.Close()
	// Garbage after the checkpoint, as a kill leaves it, is cut off.
	f, _ := os.OpenFile(filepath.Join(dir, "part"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("half a line")
	f.Close()
	s = open()
	if !s.Resumed() || s.Position() != (Position{0, 17}) {
		t.Fatalf("resumed %v at %+v, want stream 0 item 17", s.Resumed(), s.Position())
	}
	var second toy
	if err := s.State(&second.seen); err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), second.config(s)); err != nil {
		t.Fatal(err)
	}
	if err := s.Commit([]string{filepath.Join(dir, "out")}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "out"))
	if string(got) != want {
		t.Errorf("resumed output differs:\n%s\nwant\n%s", got, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "ckpt.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("checkpoint left after Commit: %v", err)
	}
	if _, err := OpenStore(filepath.Join(dir, "x.json"), "d1", nil); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "x.json"), []byte(`{"schema":"nlsat-checkpoint/2","digest":"d2","parts":[]}`), 0o644)
	if _, err := OpenStore(filepath.Join(dir, "x.json"), "d1", nil); err == nil || !strings.Contains(err.Error(), "another configuration") {
		t.Errorf("other digest: got %v", err)
	}
}

// TestShardsMerge runs the toy job as 1 and 3 shards and merges them: the
// merge emits what one run emits, except the items no shard drew, which
// Missing supplies.
func TestShardsMerge(t *testing.T) {
	var ref toy
	c := ref.config(nil)
	c.Do = func(_ context.Context, _ int, k, i int) (item, error) {
		if k == 0 && i%2 == 1 {
			return item{k, i, -1}, nil // what Missing gives for undrawn items
		}
		return item{k, i, i * i}, nil
	}
	if err := Run(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 3} {
		base := t.TempDir()
		var dirs []string
		for j := range n {
			dir := filepath.Join(base, fmt.Sprint(j))
			var tj toy
			m := Manifest{Kind: "toy", Digest: "d", Index: j, Count: n}
			if _, err := RunShard(context.Background(), tj.config(nil), dir, m, false); err != nil {
				t.Fatal(err)
			}
			if _, err := RunShard(context.Background(), tj.config(nil), dir, m, false); !errors.Is(err, ErrDone) {
				t.Errorf("shard %d again: got %v, want ErrDone", j, err)
			}
			dirs = append(dirs, dir)
		}
		slices.Reverse(dirs)
		src, err := OpenShards(dirs)
		if err != nil {
			t.Fatal(err)
		}
		var merged toy
		mc := merged.config(nil)
		mc.Source = src
		if err := Run(context.Background(), mc); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(merged.out, ref.out) {
			t.Errorf("%d shards: merged %d lines, want %d: %q", n, len(merged.out), len(ref.out), merged.out[:8])
		}
	}
}

func TestResolveSlot(t *testing.T) {
	tests := []struct {
		name         string
		index, count int
		iSet, cSet   bool
		env          map[string]string
		sharded      bool
		want         Slot
		err          string
	}{
		{"none", 0, 0, false, false, nil, false, Slot{}, ""},
		{"flags", 2, 4, true, true, nil, true, Slot{2, 4, "flags"}, ""},
		{"slurm", 0, 0, false, false, map[string]string{"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "8"}, true, Slot{4, 8, "$SLURM_ARRAY_TASK_ID"}, ""},
		{"slurm with flag count", 0, 6, false, true, map[string]string{"SLURM_ARRAY_TASK_ID": "3"}, true, Slot{3, 6, "$SLURM_ARRAY_TASK_ID"}, ""},
		{"kubernetes", 0, 10, false, true, map[string]string{"JOB_COMPLETION_INDEX": "9"}, true, Slot{9, 10, "$JOB_COMPLETION_INDEX"}, ""},
		{"kubernetes without count", 0, 0, false, false, map[string]string{"JOB_COMPLETION_INDEX": "1"}, false, Slot{}, "give --shard-count"},
		{"flags win", 0, 2, true, true, map[string]string{"JOB_COMPLETION_INDEX": "7"}, true, Slot{0, 2, "flags"}, ""},
		{"index out of range", 4, 4, true, true, nil, false, Slot{}, "must lie in 0..3"},
		{"index alone", 1, 0, true, false, nil, false, Slot{}, "go together"},
		{"bad environment", 0, 0, false, false, map[string]string{"SLURM_ARRAY_TASK_ID": "x"}, false, Slot{}, "is not a shard number"},
		{"slurm without count", 0, 0, false, false, map[string]string{"SLURM_ARRAY_TASK_ID": "2"}, false, Slot{}, "$SLURM_ARRAY_TASK_COUNT is not"},
		{"slurm task again, with count", 0, 4, false, true, map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "3", "SLURM_ARRAY_TASK_MAX": "3", "SLURM_ARRAY_TASK_COUNT": "1"}, true, Slot{3, 4, "$SLURM_ARRAY_TASK_ID"}, ""},
		{"slurm task again, without count", 0, 0, false, false, map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "3", "SLURM_ARRAY_TASK_MAX": "3", "SLURM_ARRAY_TASK_COUNT": "1"}, false, Slot{}, "submitted alone: give --shard-count"},
		{"slurm stepped, with count", 0, 7, false, true, map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "6", "SLURM_ARRAY_TASK_COUNT": "4"}, true, Slot{4, 7, "$SLURM_ARRAY_TASK_ID"}, ""},
		{"slurm stepped, without count", 0, 0, false, false, map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "6", "SLURM_ARRAY_TASK_COUNT": "4"}, false, Slot{}, "stepped or partial array"},
		{"slurm whole, one-based", 0, 0, false, false, map[string]string{"SLURM_ARRAY_TASK_ID": "8", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "8", "SLURM_ARRAY_TASK_COUNT": "8"}, true, Slot{7, 8, "$SLURM_ARRAY_TASK_ID"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, sharded, err := ResolveSlot(tt.index, tt.count, tt.iSet, tt.cSet, func(k string) string { return tt.env[k] })
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || sharded != tt.sharded || sharded && s != tt.want {
				t.Errorf("got %+v sharded %v, %v; want %+v sharded %v", s, sharded, err, tt.want, tt.sharded)
			}
		})
	}
}

// fitted is a job whose second stream needs what the first one teaches:
// "pilot" holds i for i < 30, and "main" holds i + the sum of the pilot,
// which its consumer learns at the pilot's end. A shard cannot compute
// "main" until a merge has handed it the sum (a file in its directory).
type fitted struct {
	sum, learnt int
	out         []string
}

func (f *fitted) config(dir string, store *Store) Config[int, item] {
	return Config[int, item]{
		Streams: []Stream{
			{Name: "pilot", Limit: 30, ShardLimit: 30, Restart: true},
			{Name: "main", Start: 30, Limit: 60, ShardLimit: 60},
		},
		Workers: 2,
		New:     func() (int, error) { return 0, nil },
		Do: func(_ context.Context, _ int, k, i int) (item, error) {
			if k == 0 {
				return item{k, i, i}, nil
			}
			return item{k, i, i + f.learnt}, nil
		},
		Emit: func(k, i int, r item) (bool, error) {
			if k == 0 {
				f.sum += r.V
			}
			f.out = append(f.out, fmt.Sprintf("%d:%d=%d", k, i, r.V))
			return false, nil
		},
		End: func(k int) error {
			if k == 0 {
				f.learnt = f.sum
			}
			return nil
		},
		Ready: func(k int) (bool, error) {
			if k == 0 || dir == "" {
				return true, nil
			}
			data, err := os.ReadFile(filepath.Join(dir, "learnt"))
			if errors.Is(err, os.ErrNotExist) {
				return false, nil
			}
			_, err = fmt.Sscan(string(data), &f.learnt)
			return err == nil, err
		},
		Spent: func(k int) bool { return k == 0 && f.learnt != 0 },
		Store: store,
		State: func() any { return f.learnt },
	}
}

// TestShardsWaitForTheMerge runs the fitted job as 3 shards. Each stops
// before "main" and publishes its pilot; the merge emits the pilots,
// learns, checkpoints and waits; the shards, handed what it learnt, draw
// "main"; a second merge resumes and ends in the output of one run. The
// shards, handed what the merge learnt from their pilots, remove them
// (Config.Spent), so a merge that would read them again is refused.
func TestShardsWaitForTheMerge(t *testing.T) {
	var ref fitted
	if err := Run(context.Background(), ref.config("", nil)); err != nil {
		t.Fatal(err)
	}
	base := t.TempDir()
	var dirs []string
	ms := make([]Manifest, 3)
	shard := func(j int) (*Manifest, error) {
		var f fitted
		return RunShard(context.Background(), f.config(dirs[j], nil), dirs[j], ms[j], false)
	}
	for j := range ms {
		dirs = append(dirs, filepath.Join(base, fmt.Sprint(j)))
		ms[j] = Manifest{Kind: "fitted", Digest: "d", Index: j, Count: 3}
		m, err := shard(j)
		if !errors.Is(err, ErrWaiting) || m.Through != 1 || len(m.Files) != 1 {
			t.Fatalf("shard %d: got %+v, %v; want it waiting through stream 1 with its pilot", j, m, err)
		}
		if _, err := shard(j); !errors.Is(err, ErrWaiting) {
			t.Fatalf("shard %d again, before the merge: got %v, want ErrWaiting", j, err)
		}
		if names, _ := filepath.Glob(filepath.Join(dirs[j], "*.tmp")); len(names) > 0 {
			t.Errorf("shard %d published twice leaves %v", j, names)
		}
	}
	merge := func() (*fitted, error) {
		src, err := OpenShards(dirs)
		if err != nil {
			t.Fatal(err)
		}
		store, err := OpenStore(filepath.Join(base, "merge.json"), "d", nil)
		if err != nil {
			t.Fatal(err)
		}
		defer store.Close()
		var f fitted
		if err := store.State(&f.learnt); err != nil {
			t.Fatal(err)
		}
		c := f.config("", store)
		c.Source = src
		return &f, Run(context.Background(), c)
	}
	first, err := merge()
	if !errors.Is(err, ErrWaiting) || first.learnt != 435 || len(first.out) != 30 {
		t.Fatalf("first merge: learnt %d, %d lines, %v; want 435, the 30 pilot lines, ErrWaiting", first.learnt, len(first.out), err)
	}
	if _, err := merge(); !errors.Is(err, ErrWaiting) {
		t.Fatalf("merge again before the shards went on: %v, want ErrWaiting", err)
	}
	for j := range dirs {
		os.WriteFile(filepath.Join(dirs[j], "learnt"), []byte(fmt.Sprint(first.learnt)), 0o644)
		m, err := shard(j)
		if err != nil || !m.Done() || len(m.Files) != 2 {
			t.Fatalf("shard %d after the merge: %+v, %v", j, m, err)
		}
		if f := m.Files[0]; !f.Spent || f.Rows != 10 || f.SHA256 != "" {
			t.Errorf("shard %d's pilot after the merge: %+v, want it spent, of 10 rows", j, f)
		}
		if names, _ := filepath.Glob(filepath.Join(dirs[j], "pilot*")); len(names) > 0 {
			t.Errorf("shard %d keeps its spent pilot: %v", j, names)
		}
		if _, err := shard(j); !errors.Is(err, ErrDone) {
			t.Errorf("shard %d once more: got %v, want ErrDone", j, err)
		}
	}
	second, err := merge()
	if err != nil {
		t.Fatal(err)
	}
	if got := append(first.out, second.out...); !slices.Equal(got, ref.out) {
		t.Errorf("merged in two turns:\n%q\nwant\n%q", got, ref.out)
	}
	os.Remove(filepath.Join(base, "merge.json"))
	if _, err := merge(); err == nil || !strings.Contains(err.Error(), "removed its pilot.jsonl.gz once a merge had read it") {
		t.Errorf("a merge from scratch, after the shards removed their pilots: %v", err)
	}
}

// FuzzParseLine: a line writeLine wrote reads back as its index and item;
// any other input never panics, and where parseLine cuts a line apart
// without encoding/json, putting the parts back together gives the line.
func FuzzParseLine(f *testing.F) {
	f.Add(7, []byte(`{"thinned":true,"label":1}`), []byte(`{"i":12,"r":{"a":[1,2]}}`+"\n"))
	f.Add(0, []byte(`"x"`), []byte(`{"r":1,"i":2}`))
	f.Add(3, []byte(`null`), []byte(`{"i":1,"r":1,"x":2}`))
	f.Fuzz(func(t *testing.T, i int, item, raw []byte) {
		if i >= 0 && json.Valid(item) {
			var buf bytes.Buffer
			data, _ := json.Marshal(line{I: i, R: item})
			buf.Write(append(data, '\n'))
			l, err := parseLine(buf.Bytes())
			var want line
			json.Unmarshal(data, &want)
			if err != nil || l.I != i || !bytes.Equal(l.R, want.R) {
				t.Fatalf("%q: got %+v, %v; want index %d, item %q", buf.Bytes(), l, err, i, want.R)
			}
		}
		l, err := parseLine(raw)
		if err != nil {
			return
		}
		var std line
		if json.Unmarshal(raw, &std) == nil && std.I == l.I && bytes.Equal(std.R, l.R) {
			return // what encoding/json reads
		}
		back := fmt.Sprintf(`{"i":%d,"r":%s}`, l.I, l.R)
		if back != strings.TrimRight(string(raw), "\n") {
			t.Fatalf("%q read as index %d, item %q", raw, l.I, l.R)
		}
	})
}

// TestShardRefusesAnotherLayout: a waiting shard's checkpoint holds a
// position among its streams, so a run whose streams are laid out
// otherwise (another version's layout) is refused, not resumed at a
// position that means something else.
func TestShardRefusesAnotherLayout(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "shard")
	m := Manifest{Kind: "fitted", Digest: "d", Index: 0, Count: 2}
	var f fitted
	if _, err := RunShard(context.Background(), f.config(dir, nil), dir, m, false); !errors.Is(err, ErrWaiting) {
		t.Fatalf("got %v, want ErrWaiting", err)
	}
	c := f.config(dir, nil)
	c.Streams[0].Name, c.Streams[1].Name = c.Streams[1].Name, c.Streams[0].Name
	if _, err := RunShard(context.Background(), c, dir, m, false); err == nil || !strings.Contains(err.Error(), "another configuration") {
		t.Fatalf("streams reordered: got %v, want a refusal", err)
	}
}
