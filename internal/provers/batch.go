package provers

import (
	"slices"
	"strings"
)

// Batch is many problems written one after another into one text, with
// the line each starts on, so that the line of an input error leads back
// to its problem. The zero Batch is empty and ready to use.
type Batch struct {
	text    strings.Builder
	lines   int   // newlines in text so far
	starts  []int // 1-based first line of each problem
	offsets []int // byte offset of each problem in text
}

// Add appends the text of the next problem. The text should end with a
// newline so that the next problem starts on a line of its own.
func (b *Batch) Add(problem string) {
	b.starts = append(b.starts, b.lines+1)
	b.offsets = append(b.offsets, b.text.Len())
	b.text.WriteString(problem)
	b.lines += strings.Count(problem, "\n")
}

// Len returns the number of problems added.
func (b *Batch) Len() int { return len(b.starts) }

// String returns the whole text.
func (b *Batch) String() string { return b.text.String() }

// Problem returns the text of problem i, counting from 0.
func (b *Batch) Problem(i int) string {
	end := b.text.Len()
	if i+1 < len(b.offsets) {
		end = b.offsets[i+1]
	}
	return b.text.String()[b.offsets[i]:end]
}

// ProblemAt returns the index and text of the problem holding the
// 1-based line n, or -1 and "" when n is before the first problem or
// past the text.
func (b *Batch) ProblemAt(n int) (int, string) {
	i, found := slices.BinarySearch(b.starts, n)
	if !found {
		i--
	}
	if i < 0 || n < 1 || n > b.lines+1 {
		return -1, ""
	}
	return i, b.Problem(i)
}
