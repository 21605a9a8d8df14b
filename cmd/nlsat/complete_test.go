package main

import (
	"context"
	"strings"
	"testing"
)

// TestComplete drives cobra's hidden __complete command, as the shell
// scripts of nlsat completion do, and checks what it offers: the values of
// enum flags, and files or directories where they are expected (":0" is
// cobra's default, file names; ":4" no files; ":16" directories only).
func TestComplete(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"generate", "--fragment", ""}, "S W V Z A :4"},
		{[]string{"split", "--fragment", ""}, "S W V Z A all :4"},
		{[]string{"phase-sweep", "--fragment", ""}, "S W V Z A all :4"},
		{[]string{"crosscheck", "--fragment", ""}, "S W V Z A all :4"},
		{[]string{"generate", "--solver", ""}, "native z3 both none :4"},
		{[]string{"label", "--solver", ""}, "native z3 both :4"},
		{[]string{"split", "--holdout", ""}, "none size vocabulary difficulty templates depth :4"},
		{[]string{"split", "--dedup", ""}, "renaming exact :4"},
		{[]string{"translate", "--format", ""}, "text ascii latex smtlib tptp :4"},
		{[]string{"eval", "--answers", ""}, "any satunsat truefalse :4"},
		{[]string{"distract", "--mode", ""}, "fresh implied :4"},
		{[]string{"split", "--out", ""}, ":16"},
		{[]string{"phase-sweep", "--out", ""}, ":16"},
		{[]string{"label", "--out", ""}, ":0"},
		{[]string{"eval", "--gold", ""}, ":0"},
		{[]string{"generate", "--region", ""}, ":0"},
		{[]string{"solve", "--file", ""}, ":0"},
		{[]string{"label", ""}, ":0"},
		{[]string{"stats", ""}, ":0"},
		{[]string{"plot", "--out", "figs", ""}, ":0"},
		{[]string{"audit", ""}, ":16"},
		{[]string{"merge", "--out", "x", ""}, ":16"},
		{[]string{"solve", ""}, ":4"},
		{[]string{"generate", ""}, ":4"},
	}
	for _, tt := range tests {
		code, out, errs := nlsat(context.Background(), "", append([]string{"__complete"}, tt.args...)...)
		if got := strings.Join(strings.Fields(out), " "); code != 0 || got != tt.want {
			t.Errorf("%v: exit %d, offered %q (stderr %q), want %q", tt.args, code, got, errs, tt.want)
		}
	}
}
