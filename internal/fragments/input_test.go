package fragments

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestReadInputRunningText(t *testing.T) {
	file := filepath.Join(t.TempDir(), "in.txt")
	os.WriteFile(file, []byte("# a comment\nEvery scholar is a poet. Every poet loves some musician.\n\nSome scholar does not love any musician.\n"), 0o644)
	tests := []struct {
		name  string
		args  []string
		file  string
		stdin string
		want  []Line
	}{
		{"one per line", nil, "", "Every scholar is a poet.\nSome poet is not a scholar.\n",
			[]Line{{"Every scholar is a poet.", "stdin:1"}, {"Some poet is not a scholar.", "stdin:2"}}},
		{"a record's text", nil, "-", "Every scholar is a poet. Some poet is not a scholar.",
			[]Line{{"Every scholar is a poet.", "stdin:1 sentence 1"}, {"Some poet is not a scholar.", "stdin:1 sentence 2"}}},
		{"a file", nil, file, "", []Line{{"Every scholar is a poet.", file + ":2 sentence 1"},
			{"Every poet loves some musician.", file + ":2 sentence 2"}, {"Some scholar does not love any musician.", file + ":4"}}},
		{"arguments", []string{"Every scholar is a poet.  Some poet is not a scholar.", "No poet is a scholar"}, "", "",
			[]Line{{"Every scholar is a poet.", "argument 1 sentence 1"}, {"Some poet is not a scholar.", "argument 1 sentence 2"}, {"No poet is a scholar", "argument 2"}}},
	}
	for _, tt := range tests {
		got, err := ReadInput(tt.args, tt.file, strings.NewReader(tt.stdin))
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: got %v, %v; want %v", tt.name, got, err, tt.want)
		}
	}
	if _, err := ReadInput([]string{" ", ""}, "", nil); err == nil || !strings.Contains(err.Error(), "no sentences") {
		t.Errorf("blank arguments: got %v, want no sentences", err)
	}
}

func TestParseInputNamesTheSentence(t *testing.T) {
	lines, err := ReadInput(nil, "", strings.NewReader("Every scholar is a poet. Some poet admires every scholar who does not hate him him."))
	if err != nil {
		t.Fatal(err)
	}
	_, err = ParseInput(lines, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "stdin:1 sentence 2: ") || !strings.Contains(err.Error(), `word 11 "him": expected the end`) {
		t.Errorf("got %v, want an error naming stdin:1 sentence 2 and the word", err)
	}
}
