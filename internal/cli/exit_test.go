package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/nlsat/nlsat/internal/inputerr"
)

type usage struct{ error }

func (usage) Usage() {}

func TestExit(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		ctx  context.Context
		err  error
		code int
		line string
	}{
		{context.Background(), nil, ExitOK, ""},
		{context.Background(), errors.New("solver failed"), ExitFailure, "nlsat: solver failed\n"},
		{context.Background(), fmt.Errorf("wrapped: %w", usage{errors.New("bad flag")}), ExitUsage, "nlsat: wrapped: bad flag\n"},
		{context.Background(), inputerr.Errorf("a.jsonl:3: no id"), ExitUsage, "nlsat: a.jsonl:3: no id\n"},
		{context.Background(), errors.New(`unknown flag: --frob`), ExitUsage, "nlsat: unknown flag: --frob\n"},
		{context.Background(), errors.Join(inputerr.Errorf("first"), errors.New("second")), ExitUsage, "nlsat: first; second\n"},
		{cancelled, errors.New("anything"), ExitInterrupted, "nlsat: interrupted; no finished output was written\n"},
	}
	for _, tt := range tests {
		var w bytes.Buffer
		if code := Exit(tt.ctx, &w, tt.err); code != tt.code || w.String() != tt.line {
			t.Errorf("Exit(%v) = %d, %q; want %d, %q", tt.err, code, w.String(), tt.code, tt.line)
		}
	}
}
