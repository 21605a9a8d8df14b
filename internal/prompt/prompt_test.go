package prompt

import (
	"testing"
)

func TestTaskTag(t *testing.T) {
	tests := []struct{ in, want string }{
		{"zero-shot-A", "nlsat_zero_shot_a"},
		{"nlsat_test", "nlsat_test"},
		{"Zero Shot (S)", "nlsat_zero_shot_s"},
		{"---", "nlsat"},
	}
	for _, tt := range tests {
		if got := TaskTag(tt.in); got != tt.want {
			t.Errorf("TaskTag(%q): got %q, want %q", tt.in, got, tt.want)
		}
	}
}
