package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// exitCase is one bad command line: "$D" in its arguments stands for the
// test's directory; want is a part of the one line it must print.
type exitCase struct {
	name, stdin string
	args        []string
	want        string
}

var exitCases = []exitCase{
	{"unknown fragment", "", []string{"generate", "--fragment", "Q", "--out", "$D/x.jsonl"}, `"Q" is not one of S, W, V, Z, A`},
	{"impossible range", "", []string{"generate", "--fragment", "W", "--n1", "2", "--out", "$D/x.jsonl"}, "n1"},
	{"bad range", "", []string{"generate", "--m", "9-3", "--out", "$D/x.jsonl"}, "low <= high"},
	{"bad duration", "", []string{"generate", "--timeout", "soon"}, `"soon" for "--timeout"`},
	{"unwritable output", "", []string{"generate", "--count", "2", "--out", "$D/no/such/dir.jsonl"}, "cannot write"},
	{"generate into a directory", "", []string{"generate", "--count", "1000000", "--out", "$D/dir"}, "cannot write $D/dir: it is a directory"},
	{"generate under /proc", "", []string{"generate", "--count", "2", "--out", "/proc/nlsat-no/x.jsonl"}, "/proc/nlsat-no"},
	{"generate shard into a non-empty directory", "", []string{"generate", "-q", "--count", "4", "--shard-index", "0", "--shard-count", "2", "--out", "$D/full"}, "$D/full is not empty"},
	{"split into a non-empty directory", "", []string{"split", "-q", "--fragment", "S", "--train", "20", "--validation", "4", "--test", "4", "--out", "$D/full"}, "$D/full is not empty"},
	{"split under /proc", "", []string{"split", "-q", "--fragment", "S", "--train", "20", "--validation", "4", "--test", "4", "--out", "/proc/nlsat-no"}, "cannot write /proc/nlsat-no"},
	{"translate a directory", "", []string{"translate", "--file", "$D/dir"}, "$D/dir"},
	{"translate a missing file", "", []string{"translate", "--file", "$D/none.txt"}, "$D/none.txt"},
	{"translate into a directory", "", []string{"translate", "--out", "$D/dir", "Every scholar is a poet."}, "cannot write $D/dir: it is a directory"},
	{"translate under /proc", "", []string{"translate", "--out", "/proc/nlsat-no/x", "Every scholar is a poet."}, "/proc/nlsat-no"},
	{"outside the grammar", "", []string{"translate", "Every artist admire some baker."}, `"admire"`},
	{"wrong fragment", "", []string{"translate", "--fragment", "S", "Every artist admires some baker."}, "not in S"},
	{"no sentences", "", []string{"solve"}, "no sentences"},
	{"unknown command", "", []string{"frobnicate"}, "unknown command"},
	{"unknown flag", "", []string{"stats", "--frobnicate", "x"}, "--frobnicate"},
	{"too many arguments", "", []string{"audit", "a", "b"}, "accepts 1 arg"},
	{"audit without a directory", "", []string{"audit"}, "audit needs a dataset directory (DIR, holding data/train.jsonl, validation.jsonl and test.jsonl): it compares splits, so it reads no stdin"},
	{"bad record", "{\"sentences\": [\"Every artist is a baker\"]}\n", []string{"label", "--out", "$D/x.jsonl"}, "stdin:1"},
	{"label non-UTF-8 input", figure1Record + "{\"sentences\": [\"Every scholar is a po\xe9t.\"]}\n", []string{"label", "--out", "$D/x.jsonl"}, "stdin:2: not UTF-8 (invalid byte 38 of the line)"},
	{"missing input", "", []string{"label", "$D/none.jsonl", "--out", "$D/x.jsonl"}, "$D/none.jsonl"},
	{"unreadable input", "", []string{"stats", "$D/dir"}, "$D/dir"},
	{"label into a directory", figure1Record, []string{"label", "--out", "$D/dir"}, "cannot write $D/dir"},
	{"missing required flag", "", []string{"eval", "--gold", "$D/none.jsonl"}, `"pred"`},
	{"merge a missing shard", "", []string{"merge", "--out", "$D/m", "$D/none"}, "$D/none"},
	{"plot a missing sweep", "", []string{"plot", "$D/none", "--out", "$D/figs"}, "$D/none"},
	{"plot without --out", "", []string{"plot", "$D/dir"}, `required flag(s) "out" not set`},
	{"merge without --out", "", []string{"merge", "$D/dir"}, `required flag(s) "out" not set`},
	{"prompt without --out", "", []string{"prompt", "$D/dir"}, `required flag(s) "out" not set`},
	{"phase-sweep without --out", "", []string{"phase-sweep", "--fragment", "S"}, `required flag(s) "out" not set`},
	{"running text, a bad word", "Every scholar is a poet. Some poet admires every scholar who does not hate him him.\n", []string{"solve"},
		`stdin:1 sentence 2: "Some poet admires every scholar who does not hate him him.": word 11 "him": expected the end`},
	{"phase-sweep under /proc", "", []string{"phase-sweep", "-q", "--fragment", "S", "--n1", "6", "--m", "4", "--samples", "2", "--out", "/proc/nlsat-no"}, "/proc/nlsat-no"},
}

const figure1Record = `{"sentences": ["Every scholar is a poet.", "Every poet loves some musician.", "Some scholar does not love any musician."]}` + "\n"

// TestExitUsage runs every bad command line, and a bad value of every
// enum flag of every command: each must exit 2 with one line naming what
// is wrong, write nothing to stdout and leave no file behind.
func TestExitUsage(t *testing.T) {
	cases := append(exitCases, enumCases(newRootCmd(streams{}))...)
	for _, tt := range cases {
		dir := t.TempDir()
		for _, d := range []string{"dir", "full"} {
			if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, "full", "keep"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		args := make([]string, len(tt.args))
		for i, a := range tt.args {
			args[i] = strings.ReplaceAll(a, "$D", dir)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		code, stdout, stderr := nlsat(ctx, tt.stdin, args...)
		cancel()
		want := strings.ReplaceAll(tt.want, "$D", dir)
		if code != exitUsage {
			t.Errorf("%s: exit %d, want %d (stderr %q)", tt.name, code, exitUsage, stderr)
		}
		if strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "nlsat: ") || !strings.Contains(stderr, want) {
			t.Errorf("%s: stderr %q, want one line containing %q", tt.name, stderr, want)
		}
		if stdout != "" {
			t.Errorf("%s: wrote to stdout: %q", tt.name, stdout)
		}
		if left := leftovers(t, dir); left != "dir full full/keep" {
			t.Errorf("%s: the directory holds %s", tt.name, left)
		}
	}
}

// enumCases gives a bad value to every enum flag of every command.
func enumCases(root *cobra.Command) []exitCase {
	var out []exitCase
	for _, c := range root.Commands() {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if _, ok := f.Value.(*enumFlag); ok && !f.Hidden {
				out = append(out, exitCase{name: c.Name() + " --" + f.Name, args: []string{c.Name(), "--" + f.Name, "bogus"},
					want: `"bogus" for "--` + f.Name + `" flag: "bogus" is not one of`})
			}
		})
	}
	return out
}

// leftovers lists every file under dir, hidden ones too.
func leftovers(t *testing.T, dir string) string {
	t.Helper()
	var names []string
	filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		if err == nil && p != dir {
			rel, _ := filepath.Rel(dir, p)
			names = append(names, rel)
		}
		return nil
	})
	return strings.Join(names, " ")
}

func TestVersionFlag(t *testing.T) {
	code, out, _ := nlsat(context.Background(), "", "--version")
	if code != 0 || !strings.HasPrefix(out, "nlsat version ") || !strings.Contains(out, "\ngo: go") || !strings.Contains(out, "\nZ3 backend: ") {
		t.Errorf("exit %d, out %q", code, out)
	}
}
