package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/dataset"
)

// readRecords returns the records of a file of any format as JSONL.
func readRecords(t *testing.T, name string) string {
	t.Helper()
	b, err := dataset.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestFormatCommands runs every command that writes records in every
// format, from inputs in every format: the records are those of the
// JSONL run, and the bytes are the same for any -j.
func TestFormatCommands(t *testing.T) {
	dir := t.TempDir()
	gen := []string{"generate", "--fragment", "V", "--count", "24", "--m", "8", "--n1", "3", "--n2", "3", "--seed", "4", "-q"}
	base := filepath.Join(dir, "a.jsonl")
	if code, _, stderr := nlsat(context.Background(), "", append(gen, "--out", base)...); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	cmds := [][]string{gen, {"label", "-q"}, {"pairs", "-q"}, {"distract", "--count", "1", "-q"}}
	for _, f := range dataset.Formats() {
		in := filepath.Join(dir, "in"+dataset.Format(f).Ext())
		if code, _, stderr := nlsat(context.Background(), "", append(gen, "--out", in)...); code != 0 {
			t.Fatalf("generate %s: exit %d: %s", f, code, stderr)
		}
		for _, c := range cmds {
			args := c
			if c[0] != "generate" {
				args = append([]string{c[0], in}, c[1:]...)
			}
			ref := filepath.Join(dir, c[0]+"-ref.jsonl")
			runTo(t, ref, append(args[:len(args):len(args)], "-j", "1"))
			out := filepath.Join(dir, c[0]+"-out"+dataset.Format(f).Ext())
			got := runTo(t, out, append(args[:len(args):len(args)], "-j", "3"))
			want := readRecords(t, ref)
			if c[0] == "pairs" && f == "parquet" {
				// nlsat reads a pairs file's Parquet as instance records.
				want = asRecords(t, want)
			}
			if readRecords(t, out) != want {
				t.Errorf("%s from %s: the records differ from the JSONL output's", c[0], f)
			}
			again := runTo(t, out, append(args[:len(args):len(args)], "-j", "1", "--format", f))
			if got != again {
				t.Errorf("%s in %s: -j 1 and -j 3 write other bytes", c[0], f)
			}
		}
	}
	// Stdin in any format, stdout in the format asked for.
	zst, _ := os.ReadFile(filepath.Join(dir, "in.jsonl.zst"))
	code, stdout, stderr := nlsat(context.Background(), string(zst), "label", "-q", "--format", "jsonl.gz")
	if code != 0 {
		t.Fatalf("label from stdin: exit %d: %s", code, stderr)
	}
	r, err := dataset.NewReader(strings.NewReader(stdout), "stdout")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(r)
	if string(got) != readRecords(t, filepath.Join(dir, "label-ref.jsonl")) {
		t.Error("label from zstd stdin to gzip stdout: the records differ")
	}
	// The minimal fields.
	minimal := filepath.Join(dir, "min.parquet")
	runTo(t, minimal, []string{"label", base, "-q", "--fields", "minimal"})
	for i, line := range strings.Split(strings.TrimSpace(readRecords(t, minimal)), "\n") {
		if !strings.HasPrefix(line, `{"text":"`) || !strings.Contains(line, `","label":`) || strings.Count(line, `":`) != 2 {
			t.Fatalf("minimal record %d: %s", i+1, line)
		}
	}
}

// asRecords returns JSONL lines with only the fields of an instance
// record.
func asRecords(t *testing.T, lines string) string {
	t.Helper()
	var buf bytes.Buffer
	enc := dataset.NewEncoder(&buf)
	dec := dataset.NewDecoder(strings.NewReader(lines), "lines")
	for {
		r, err := dec.Next()
		if err == io.EOF {
			return buf.String()
		}
		if err != nil {
			t.Fatal(err)
		}
		enc.Encode(r)
	}
}

// runTo runs a command with --out name and returns what it wrote.
func runTo(t *testing.T, name string, args []string) string {
	t.Helper()
	code, _, stderr := nlsat(context.Background(), "", append(args, "--out", name)...)
	if code != 0 {
		t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), code, stderr)
	}
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestFormatBadInput: an unknown format, a format that contradicts the
// output's name and a corrupt file are usage errors (exit 2) with a
// one-line message naming what was expected, and nothing is written.
func TestFormatBadInput(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "a.parquet")
	if code, _, stderr := nlsat(context.Background(), "", "generate", "--fragment", "S", "--count", "10", "-q", "--out", good); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	data, _ := os.ReadFile(good)
	corrupt := filepath.Join(dir, "corrupt.parquet")
	os.WriteFile(corrupt, append(bytes.Clone(data[:len(data)/2]), data[len(data)-8:]...), 0o644)
	out := filepath.Join(dir, "out.jsonl")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"generate", "--format", "csv", "--out", out}, `"csv" is not one of jsonl, jsonl.gz, jsonl.zst, parquet`},
		{[]string{"label", good, "--format", "parquet", "--out", out}, "does not match the name"},
		{[]string{"label", corrupt, "--out", out}, corrupt},
		{[]string{"stats", corrupt}, corrupt},
		{[]string{"merge", "--format", "xml", "--out", out, dir}, `"xml" is not one of`},
	} {
		code, _, stderr := nlsat(context.Background(), "", tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line containing %q", tc.args, code, stderr, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v wrote %s", tc.args, out)
		}
	}
}
