package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/nlsat/nlsat/internal/fragments"
)

// inputLine is one sentence with where it came from, for error messages.
type inputLine struct {
	text  string
	where string // "argument 2", "in.txt:14", "stdin:3"
}

// readSentences collects sentences from the arguments, or else from the
// file (or stdin when file is "" or "-"), one per line; blank lines and
// lines starting with # are skipped.
func readSentences(args []string, file string, stdin io.Reader) ([]inputLine, error) {
	if len(args) > 0 {
		if file != "" {
			return nil, usagef("give sentences as arguments or with --file, not both")
		}
		var out []inputLine
		for i, a := range args {
			out = append(out, inputLine{strings.TrimSpace(a), fmt.Sprintf("argument %d", i+1)})
		}
		return out, nil
	}
	name, r := "stdin", stdin
	if file != "" && file != "-" {
		f, err := os.Open(file)
		if err != nil {
			return nil, usageError{fmt.Errorf("cannot read sentences: %w", err)}
		}
		defer f.Close()
		name, r = file, f
	}
	var out []inputLine
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	for n := 1; sc.Scan(); n++ {
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		out = append(out, inputLine{t, fmt.Sprintf("%s:%d", name, n)})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if len(out) == 0 {
		return nil, usagef("no sentences given (pass them as arguments, with --file, or on stdin)")
	}
	return out, nil
}

// parseSentences parses every line strictly; with a fragment it also
// checks membership. Errors name the line.
func parseSentences(lines []inputLine, frag *fragments.Fragment) ([]fragments.Sentence, error) {
	out := make([]fragments.Sentence, len(lines))
	for i, l := range lines {
		s, err := fragments.Parse(l.text)
		if err != nil {
			return nil, usageError{fmt.Errorf("%s: %w", l.where, err)}
		}
		if frag != nil && s.Fragment() > *frag {
			return nil, usagef("%s: %q is in fragment %s (template %s), not in %s", l.where, l.text, s.Fragment(), s.ID(), *frag)
		}
		out[i] = s
	}
	return out, nil
}
