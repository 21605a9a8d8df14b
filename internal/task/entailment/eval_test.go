package entailment

import "testing"

func TestReadEntailAnswer(t *testing.T) {
	tests := []struct {
		text          string
		label, binary int
		phrase        string
	}{
		{"entailment", 0, 0, "entailment"},
		{" Neutral.", 1, 1, "Neutral"},
		{"**CONTRADICTION**", 2, 1, "CONTRADICTION"},
		{"The hypothesis is entailed.", 0, 0, "entailed"},
		{"not entailed", -1, 1, "not entailed"},
		{"It isn't entailed by them", -1, 1, "isn't entailed"},
		{"neutral, not entailed", 1, 1, "neutral"},
		{"contradictions", -1, -1, ""},
		{"I cannot tell.", -1, -1, ""},
		{"", -1, -1, ""},
	}
	for _, tt := range tests {
		l, b, p := ReadAnswer(tt.text)
		if l != tt.label || b != tt.binary || p != tt.phrase {
			t.Errorf("%q: got %d, %d, %q; want %d, %d, %q", tt.text, l, b, p, tt.label, tt.binary, tt.phrase)
		}
	}
}
