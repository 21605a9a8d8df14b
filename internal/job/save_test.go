package job

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"testing"
)

// TestWithSave: when saving the checkpoint fails for the cause that
// stopped the run (a full disk fails both), the message says it once;
// a different failure is kept beside the first.
func TestWithSave(t *testing.T) {
	full := func(name string) error {
		return &os.PathError{Op: "write", Path: name, Err: syscall.ENOSPC}
	}
	tests := []struct {
		name      string
		err, save error
		want      string
	}{
		{"saved", full("a.partial"), nil, "write a.partial: no space left on device"},
		{"disk full twice", full("a.partial"), fmt.Errorf("writing b.json: %w", full("b.json")), "write a.partial: no space left on device"},
		{"same text", errors.New("x: boom"), errors.New("boom"), "x: boom"},
		{"two causes", full("a.partial"), &os.PathError{Op: "open", Path: "c.json", Err: fs.ErrPermission},
			"write a.partial: no space left on device\nopen c.json: permission denied"},
	}
	for _, tt := range tests {
		if got := withSave(tt.err, tt.save).Error(); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}
