package fragments

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Line is one sentence of a command's input with where it came from,
// for messages.
type Line struct {
	Text  string
	Where string // "argument 2", "in.txt:14", "stdin:3"
}

// SplitText splits running text, such as a record's text (its sentences
// joined by spaces), into sentences after each full stop.
func SplitText(text string) []string {
	var out []string
	for _, part := range strings.SplitAfter(text, ".") {
		if t := strings.TrimSpace(part); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// appendSentences appends the sentences of text (SplitText), found at
// where; a text of several sentences names each by its number.
func appendSentences(out []Line, text, where string) []Line {
	sents := SplitText(text)
	for i, s := range sents {
		if len(sents) > 1 {
			out = append(out, Line{s, fmt.Sprintf("%s sentence %d", where, i+1)})
		} else {
			out = append(out, Line{s, where})
		}
	}
	return out
}

// ReadInput collects sentences from a command's arguments, or else from
// the file (or stdin when file is "" or "-"): running text, one sentence
// or several per argument or line, split after each full stop (SplitText).
// Blank lines and lines starting with # are skipped. Its errors are about
// the input.
func ReadInput(args []string, file string, stdin io.Reader) ([]Line, error) {
	if len(args) > 0 {
		if file != "" {
			return nil, errors.New("give sentences as arguments or with --file, not both")
		}
		var out []Line
		for i, a := range args {
			out = appendSentences(out, a, fmt.Sprintf("argument %d", i+1))
		}
		return nonEmpty(out)
	}
	name, r := "stdin", stdin
	if file != "" && file != "-" {
		f, err := os.Open(file)
		if err != nil {
			return nil, fmt.Errorf("cannot read sentences: %w", err)
		}
		defer f.Close()
		name, r = file, f
	}
	var out []Line
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	for n := 1; sc.Scan(); n++ {
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		out = appendSentences(out, t, fmt.Sprintf("%s:%d", name, n))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	return nonEmpty(out)
}

func nonEmpty(lines []Line) ([]Line, error) {
	if len(lines) == 0 {
		return nil, errors.New("no sentences given (pass them as arguments, with --file, or on stdin)")
	}
	return lines, nil
}

// ParseInput parses every line strictly with the built-in vocabulary; see
// Lexicon.ParseInput.
func ParseInput(lines []Line, frag *Fragment) ([]Sentence, error) {
	return Default().ParseInput(lines, frag)
}

// ParseInput parses every line strictly with lx; with a fragment it also
// checks that each sentence lies in it. Errors name the line.
func (lx *Lexicon) ParseInput(lines []Line, frag *Fragment) ([]Sentence, error) {
	out := make([]Sentence, len(lines))
	for i, l := range lines {
		s, err := lx.Parse(l.Text)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", l.Where, err)
		}
		if frag != nil && s.Fragment() > *frag {
			return nil, fmt.Errorf("%s: %q is in fragment %s (template %s), not in %s", l.Where, l.Text, s.Fragment(), s.ID(), *frag)
		}
		out[i] = s
	}
	return out, nil
}
