package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestStatsComparePaper runs stats --compare paper on internal/stats's
// fixture: its output is that package's golden comparison, and the flag
// takes no other value and not --json.
func TestStatsComparePaper(t *testing.T) {
	fixture := filepath.Join("..", "..", "internal", "stats", "testdata")
	want, err := os.ReadFile(filepath.Join(fixture, "records.compare-paper.txt"))
	if err != nil {
		t.Fatal(err)
	}
	records := filepath.Join(fixture, "records.jsonl")
	for _, tt := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"stats", "--compare", "paper", records}, 0, string(want)},
		{[]string{"stats", "--compare", "nlsat", records}, 2, ""},
		{[]string{"stats", "--compare", "paper", "--json", records}, 2, ""},
	} {
		code, out, stderr := nlsat(context.Background(), "", tt.args...)
		if code != tt.code || out != tt.out {
			t.Errorf("%v: exit %d, stdout\n%s\nstderr %s\nwant exit %d, stdout\n%s", tt.args, code, out, stderr, tt.code, tt.out)
		}
	}
}
