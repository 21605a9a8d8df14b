package main

import (
	"fmt"
	"strconv"
	"strings"
)

// intRange is an inclusive range of integers given as "16" or "12-20".
type intRange struct {
	Lo, Hi int
	set    bool
}

func (r *intRange) String() string {
	if !r.set {
		return ""
	}
	if r.Lo == r.Hi {
		return strconv.Itoa(r.Lo)
	}
	return fmt.Sprintf("%d-%d", r.Lo, r.Hi)
}

func (r *intRange) Set(s string) error {
	lo, hi, found := strings.Cut(strings.TrimSpace(s), "-")
	a, err := strconv.Atoi(strings.TrimSpace(lo))
	if err != nil {
		return fmt.Errorf("%q is not a number or a range such as 12-20", s)
	}
	b := a
	if found {
		if b, err = strconv.Atoi(strings.TrimSpace(hi)); err != nil {
			return fmt.Errorf("%q is not a number or a range such as 12-20", s)
		}
	}
	if a < 0 || b < a {
		return fmt.Errorf("%q is not a range of non-negative numbers with low <= high", s)
	}
	r.Lo, r.Hi, r.set = a, b, true
	return nil
}

func (r *intRange) Type() string { return "range" }

// enumFlag is a string flag restricted to a list of values; the error for
// any other value lists them.
type enumFlag struct {
	value   string
	allowed []string
}

func newEnum(def string, allowed ...string) *enumFlag {
	return &enumFlag{value: def, allowed: allowed}
}

func (e *enumFlag) String() string { return e.value }

func (e *enumFlag) Set(s string) error {
	for _, a := range e.allowed {
		if strings.EqualFold(s, a) {
			e.value = a
			return nil
		}
	}
	return fmt.Errorf("%q is not one of %s", s, strings.Join(e.allowed, ", "))
}

func (e *enumFlag) Type() string { return strings.Join(e.allowed, "|") }
