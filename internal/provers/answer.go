package provers

import "strings"

// SMTAnswers returns the answers to the (check-sat) commands in an
// SMT-LIB solver's output, in order: "sat", "unsat" or "unknown" (z3's
// "timeout", printed when its -T limit ends the run, counts as unknown).
// Only lines that start outside parentheses, "strings" and |symbols|
// count, so a model, an unsat core or an error message cannot pass for
// an answer.
func SMTAnswers(out string) []string {
	var answers []string
	var sc sexpScanner
	for _, line := range strings.SplitAfter(out, "\n") {
		if sc.depth == 0 && sc.quote == 0 {
			switch word := strings.TrimSpace(line); word {
			case "sat", "unsat", "unknown":
				answers = append(answers, word)
			case "timeout":
				answers = append(answers, "unknown")
			}
		}
		sc.scan(line)
	}
	return answers
}

// sexpScanner follows the nesting of S-expressions across lines.
type sexpScanner struct {
	depth int
	quote rune // '"' or '|' inside a string or quoted symbol, else 0
}

// scan advances over text. A stray ')' at depth 0 is ignored.
func (s *sexpScanner) scan(text string) {
	for _, c := range text {
		switch {
		case s.quote != 0:
			if c == s.quote {
				s.quote = 0
			}
		case c == '"' || c == '|':
			s.quote = c
		case c == '(':
			s.depth++
		case c == ')':
			s.depth = max(0, s.depth-1)
		}
	}
}

// SMTAnswer returns the first answer in an SMT-LIB solver's output (see
// SMTAnswers), or "unknown" if there is none.
func SMTAnswer(out string) string {
	if a := SMTAnswers(out); len(a) > 0 {
		return a[0]
	}
	return "unknown"
}

// SMTCore returns the names in the (get-unsat-core) response that
// follows the first unsat answer of out: "(s1 s3)" on one line (z3) or
// spread over lines (cvc5). It returns nil when there is no unsat answer
// or no core after it.
func SMTCore(out string) []string {
	lines := strings.SplitAfter(out, "\n")
	for i, line := range lines {
		if strings.TrimSpace(line) != "unsat" {
			continue
		}
		rest := strings.Join(lines[i+1:], "")
		open := strings.Index(rest, "(")
		if open < 0 || strings.TrimSpace(rest[:open]) != "" {
			return nil
		}
		end := strings.Index(rest[open:], ")")
		if end < 0 {
			return nil
		}
		return strings.Fields(rest[open+1 : open+end])
	}
	return nil
}

// SZSStatus returns the status word of the first "SZS status" line of
// E's output, e.g. "Unsatisfiable", "Satisfiable", "ResourceOut" or
// "GaveUp", or "" when there is none.
func SZSStatus(out string) string {
	_, after, ok := strings.Cut(out, "SZS status ")
	if fields := strings.Fields(after); ok && len(fields) > 0 {
		return fields[0]
	}
	return ""
}

// SZSAnswer maps E's SZS status for a set of axioms without a conjecture
// to "sat" (Satisfiable), "unsat" (Unsatisfiable) or "unknown" (any other
// status, or none).
func SZSAnswer(out string) string {
	switch SZSStatus(out) {
	case "Satisfiable":
		return "sat"
	case "Unsatisfiable":
		return "unsat"
	}
	return "unknown"
}
