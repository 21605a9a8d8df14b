package job

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// TestCompressedPart: a compressed part holds, read as one gzip stream,
// exactly the rows written to it, and its file's bytes depend only on
// those rows: saved at any points, closed without a commit and resumed
// any number of times, it ends in the bytes of a part written in one go.
// Rows past the last save are cut off on resume and written again, as a
// run does.
func TestCompressedPart(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	rows := make([][]byte, 3000)
	var text bytes.Buffer
	for i := range rows {
		// Lines of varied length, some longer than a member, so members
		// end both inside runs of short rows and after a long one.
		n := rng.IntN(400)
		if i%997 == 0 {
			n = MemberSize + 10
		}
		rows[i] = fmt.Appendf(nil, "{\"i\":%d,\"r\":%q}\n", i, bytes.Repeat([]byte{byte('a' + i%26)}, n))
		text.Write(rows[i])
	}
	write := func(t *testing.T, dir string, saves, stops map[int]bool) []byte {
		ckpt, name := filepath.Join(dir, "state.json"), filepath.Join(dir, "p.jsonl.gz")
		for {
			s, err := OpenStore(ckpt, "d", []string{name})
			if err != nil {
				t.Fatal(err)
			}
			next := 0 // a run with no checkpoint starts afresh
			if s.Resumed() {
				next = s.Position().Next
				if got := s.Part(0).Rows(); got != next {
					t.Fatalf("resumed at row %d with %d rows", next, got)
				}
			}
			stopped := false
			for ; next < len(rows); next++ {
				if saves[next] {
					if err := s.Save(Position{Next: next}, nil); err != nil {
						t.Fatal(err)
					}
				}
				if stops[next] {
					delete(stops, next) // the resumed run goes past it
					s.Close()
					stopped = true
					break
				}
				if err := s.Part(0).Row(rows[next]); err != nil {
					t.Fatal(err)
				}
			}
			if stopped {
				continue
			}
			if err := s.Commit([]string{filepath.Join(dir, "final.jsonl.gz")}); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(filepath.Join(dir, "final.jsonl.gz"))
			if err != nil {
				t.Fatal(err)
			}
			return data
		}
	}
	want := write(t, t.TempDir(), nil, nil)
	z, err := gzip.NewReader(bytes.NewReader(want))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, text.Bytes()) {
		t.Fatalf("the part reads as %d bytes, not the %d written", len(got), text.Len())
	}
	if len(want) > text.Len()/4 {
		t.Errorf("%d bytes of text compressed to %d", text.Len(), len(want))
	}
	tests := []struct {
		name         string
		saves, stops []int
	}{
		{"saved often", []int{1, 2, 3, 50, 51, 997, 998, 1500, 2999}, nil},
		{"stopped after a save", []int{100, 1000, 2000}, []int{100, 1000, 2000}},
		{"stopped past a save", []int{10, 700, 1994}, []int{500, 996, 2500}},
		{"stopped before any save", []int{2000}, []int{5, 1990}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			saves, stops := map[int]bool{}, map[int]bool{}
			for _, i := range tt.saves {
				saves[i] = true
			}
			for _, i := range tt.stops {
				stops[i] = true
			}
			if got := write(t, t.TempDir(), saves, stops); !bytes.Equal(got, want) {
				t.Errorf("%d bytes, not the %d of a part written in one go", len(got), len(want))
			}
		})
	}
}

// TestCompressedPartEnd: a part ended (as a shard ends a stream's part)
// and saved keeps nothing in its checkpoint, and an empty part is an
// empty file.
func TestCompressedPartEnd(t *testing.T) {
	dir := t.TempDir()
	ckpt := filepath.Join(dir, "state.json")
	parts := []string{filepath.Join(dir, "a.jsonl.gz"), filepath.Join(dir, "b.jsonl.gz")}
	s, err := OpenStore(ckpt, "d", parts)
	if err != nil {
		t.Fatal(err)
	}
	s.Part(0).Row([]byte("{}\n"))
	if err := s.Save(Position{}, nil); err != nil {
		t.Fatal(err)
	}
	if ps, _ := s.Part(0).flush(); len(ps.Pending) != 3 || ps.Bytes != 0 {
		t.Fatalf("before End: %+v", ps)
	}
	if err := s.Part(0).End(); err != nil {
		t.Fatal(err)
	}
	if ps, _ := s.Part(0).flush(); len(ps.Pending) != 0 || ps.Bytes == 0 || ps.Rows != 1 {
		t.Fatalf("after End: %+v", ps)
	}
	if err := s.Commit([]string{"", ""}); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(parts[1]); err != nil || info.Size() != 0 {
		t.Fatalf("an empty part: %v, %v", info, err)
	}
}
