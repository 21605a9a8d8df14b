package fol

import "testing"

func TestEvalAll(t *testing.T) {
	// One element that is an artist and not a baker.
	s := NewStructure(1, Signature{"artist": 1, "baker": 1})
	s.Unary["artist"][0] = true
	some := &Exists{V: "x", Body: Unary("artist", "x")}
	every := &Forall{V: "x", Body: &Implies{L: Unary("artist", "x"), R: Unary("baker", "x")}}
	open := Unary("artist", "x")
	bad := &Structure{Size: 2, Unary: map[string][]bool{"artist": {true}}}
	tests := []struct {
		name    string
		fs      []Formula
		s       *Structure
		want    int
		wantErr bool
	}{
		{"all true", []Formula{some, some}, s, -1, false},
		{"second false", []Formula{some, every, some}, s, 1, false},
		{"free variable", []Formula{some, open}, s, 1, true},
		{"malformed structure", []Formula{some}, bad, -1, true},
		{"nothing to check", nil, s, -1, false},
	}
	for _, tt := range tests {
		got, err := EvalAll(tt.fs, tt.s)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("%s: got %d, %v; want %d, error %v", tt.name, got, err, tt.want, tt.wantErr)
		}
	}
}
