package task

import (
	"errors"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/inputerr"
)

// TestRegistry: a registered task is found by its name, an unknown name
// is the user's error naming the tasks there are, and a name registered
// twice panics.
func TestRegistry(t *testing.T) {
	mu.Lock()
	saved := tasks
	tasks = nil
	mu.Unlock()
	defer func() { mu.Lock(); tasks = saved; mu.Unlock() }()

	a, b := &Task{Name: "a"}, &Task{Name: "b"}
	Register(a, b)
	for _, tc := range []struct {
		name string
		want *Task
		err  string
	}{
		{"a", a, ""},
		{"b", b, ""},
		{"c", nil, `no task "c"; the tasks are a, b`},
	} {
		got, err := Lookup(tc.name)
		var ie *inputerr.Error
		switch {
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("Lookup(%q) = %v, %v", tc.name, got, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err) || !errors.As(err, &ie)):
			t.Errorf("Lookup(%q): error %v, want a user's error %q", tc.name, err, tc.err)
		}
	}
	if got := strings.Join(Names(), ","); got != "a,b" {
		t.Errorf("Names() = %s", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("registering a name twice did not panic")
		}
	}()
	Register(&Task{Name: "a"})
}
