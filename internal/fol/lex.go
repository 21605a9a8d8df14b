package fol

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SyntaxError is the error Parse returns for malformed input. Offset is the
// byte offset of the offending token; Line and Column are 1-based, and
// Column counts characters, not bytes.
type SyntaxError struct {
	Offset int
	Line   int
	Column int
	Msg    string
}

// Error returns the message prefixed with the position, e.g.
// `column 12: expected ")" after arguments of r, found "&"`; the line is
// named only for input of more than one line.
func (e *SyntaxError) Error() string {
	if e.Line > 1 {
		return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
	}
	return fmt.Sprintf("column %d: %s", e.Column, e.Msg)
}

func newSyntaxError(src string, off int, format string, args ...any) *SyntaxError {
	start := strings.LastIndexByte(src[:off], '\n') + 1
	return &SyntaxError{
		Offset: off,
		Line:   strings.Count(src[:off], "\n") + 1,
		Column: utf8.RuneCountInString(src[start:off]) + 1,
		Msg:    fmt.Sprintf(format, args...),
	}
}

type tokKind int8

const (
	tokEOF tokKind = iota
	tokIdent
	tokForall
	tokExists
	tokNot
	tokAnd
	tokOr
	tokImp
	tokLParen
	tokRParen
	tokComma
)

type token struct {
	kind tokKind
	text string
	off  int
}

// describe names t for an error message.
func (t token) describe() string {
	if t.kind == tokEOF {
		return "end of input"
	}
	return fmt.Sprintf("%q", t.text)
}

var symbolTokens = map[rune]tokKind{
	'(': tokLParen, ')': tokRParen, ',': tokComma,
	'~': tokNot, '¬': tokNot,
	'&': tokAnd, '∧': tokAnd,
	'|': tokOr, '∨': tokOr,
	'→': tokImp, '∀': tokForall, '∃': tokExists,
}

// lex returns the token that starts at or after off (skipping white
// space).
func lex(src string, off int) (token, error) {
	for off < len(src) {
		r, n := utf8.DecodeRuneInString(src[off:])
		if !unicode.IsSpace(r) {
			break
		}
		off += n
	}
	if off == len(src) {
		return token{kind: tokEOF, off: off}, nil
	}
	r, n := utf8.DecodeRuneInString(src[off:])
	if k, ok := symbolTokens[r]; ok {
		return token{kind: k, text: src[off : off+n], off: off}, nil
	}
	switch {
	case r == '-' && strings.HasPrefix(src[off:], "->"):
		return token{kind: tokImp, text: "->", off: off}, nil
	case r >= 'a' && r <= 'z':
		return lexIdent(src, off), nil
	case r == utf8.RuneError && n == 1:
		return token{}, newSyntaxError(src, off, "invalid UTF-8 byte 0x%02x", src[off])
	case r >= 'A' && r <= 'Z':
		return token{}, newSyntaxError(src, off, "unexpected %q: names are lower-case", r)
	}
	return token{}, newSyntaxError(src, off, "unexpected character %q", r)
}

func lexIdent(src string, off int) token {
	end := off + 1
	for end < len(src) {
		c := src[end]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			break
		}
		end++
	}
	t := token{kind: tokIdent, text: src[off:end], off: off}
	switch t.text {
	case "forall":
		t.kind = tokForall
	case "exists":
		t.kind = tokExists
	}
	return t
}
