package fragments

import (
	"fmt"
	"strings"
)

// Quant is the quantifier variant of the main clause of a V or A sentence:
// the subject and object determiners. S, W and Z sentences have NoQuant.
type Quant int8

// The quantifier variants. EveryEvery … SomeSome belong to V1 and A1 and
// name the subject and object determiners; Any and Every belong to V2, V3,
// A2 and A3 and name the object determiner (the subject's is fixed by the
// template: "No" for V2 and A2, "Some … does not" for V3 and A3).
const (
	NoQuant Quant = iota
	EveryEvery
	EverySome
	SomeEvery
	SomeSome
	Any
	Every
)

var quantIDs = [...]string{NoQuant: "", EveryEvery: "every-every", EverySome: "every-some",
	SomeEvery: "some-every", SomeSome: "some-some", Any: "any", Every: "every"}

// String returns the variant's part of a sentence id, such as "every-some";
// it is empty for NoQuant.
func (q Quant) String() string {
	if q < NoQuant || q > Every {
		return fmt.Sprintf("Quant(%d)", int8(q))
	}
	return quantIDs[q]
}

// Clause is the relative-clause variant: for Z, the form of the relative
// clause on the subject; for A, whether the anaphoric clause on the object
// is positive or negated. S, W and V sentences have NoClause.
type Clause int8

// The clause variants. RCSome … RCNotEvery are Z's "who r's some p", "who
// r's every p", "who does not r any p" and "who does not r every p"; Who
// and WhoNot are A's "p who s's him" and "p who does not s him".
const (
	NoClause Clause = iota
	RCSome
	RCEvery
	RCNotAny
	RCNotEvery
	Who
	WhoNot
)

var clauseIDs = [...]string{NoClause: "", RCSome: "some", RCEvery: "every",
	RCNotAny: "not-any", RCNotEvery: "not-every", Who: "who", WhoNot: "who-not"}

// String returns the variant's part of a sentence id, such as "not-any" or
// "who-not"; it is empty for NoClause.
func (c Clause) String() string {
	if c < NoClause || c > WhoNot {
		return fmt.Sprintf("Clause(%d)", int8(c))
	}
	return clauseIDs[c]
}

// Shape is a template together with its quantifier and clause variant:
// everything about a sentence except its words and noun polarities.
type Shape struct {
	Template Template
	Quant    Quant
	Clause   Clause
}

var (
	quants1 = []Quant{EveryEvery, EverySome, SomeEvery, SomeSome}
	quants2 = []Quant{Any, Every}
	rcs     = []Clause{RCSome, RCEvery, RCNotAny, RCNotEvery}
	arcs    = []Clause{Who, WhoNot}
)

// Shapes returns the variants of t in their canonical order (the order of
// the spec's tables; for A, the clause varies fastest).
func (t Template) Shapes() []Shape {
	qs, cs := []Quant{NoQuant}, []Clause{NoClause}
	switch f := t.Fragment(); {
	case !t.Valid():
		return nil
	case f == V || f == A:
		qs = quants2
		if t.Number() == 1 {
			qs = quants1
		}
		if f == A {
			cs = arcs
		}
	case f == Z:
		cs = rcs
	}
	shapes := make([]Shape, 0, len(qs)*len(cs))
	for _, q := range qs {
		for _, c := range cs {
			shapes = append(shapes, Shape{Template: t, Quant: q, Clause: c})
		}
	}
	return shapes
}

// Shapes returns every sentence shape of fragment f, inherited ones first.
func (f Fragment) Shapes() []Shape {
	var shapes []Shape
	for _, t := range f.Templates() {
		shapes = append(shapes, t.Shapes()...)
	}
	return shapes
}

// Valid reports whether sh is one of the shapes its template lists.
func (sh Shape) Valid() bool {
	for _, x := range sh.Template.Shapes() {
		if x == sh {
			return true
		}
	}
	return false
}

// ID returns the stable id used in records: the template, then the
// quantifier variant, then the clause variant, joined by dots and leaving
// out empty parts ("S1", "V1.every-some", "Z3.not-every",
// "A2.every.who-not").
func (sh Shape) ID() string {
	if sh.Template >= S1 && sh.Template <= A3 && sh.Quant >= NoQuant && sh.Quant <= Every && sh.Clause >= NoClause && sh.Clause <= WhoNot {
		if id := shapeIDs[sh.Template][sh.Quant][sh.Clause]; id != "" {
			return id
		}
	}
	return sh.id()
}

// shapeIDs holds the ids of every template's shapes, by template, quantifier
// and clause: a record names the shape of each of its sentences, and
// writing it again for every sentence was a sizeable part of drawing
// one.
var shapeIDs = func() (tab [A3 + 1][Every + 1][WhoNot + 1]string) {
	for t := S1; t <= A3; t++ {
		for _, sh := range t.Shapes() {
			tab[t][sh.Quant][sh.Clause] = sh.id()
		}
	}
	return tab
}()

// id writes the shape's id.
func (sh Shape) id() string {
	parts := []string{sh.Template.String()}
	if sh.Quant != NoQuant {
		parts = append(parts, sh.Quant.String())
	}
	if sh.Clause != NoClause {
		parts = append(parts, sh.Clause.String())
	}
	return strings.Join(parts, ".")
}

// ParseID reads a shape id as written by Shape.ID.
func ParseID(id string) (Shape, error) {
	for _, sh := range A.Shapes() {
		if sh.ID() == id {
			return sh, nil
		}
	}
	return Shape{}, fmt.Errorf("unknown template id %q", id)
}

// shapeTable caches Template.Shapes for the sampler, indexed by template.
var shapeTable = func() (tab [A3 + 1][]Shape) {
	for t := S1; t <= A3; t++ {
		tab[t] = t.Shapes()
	}
	return tab
}()

// shapesOf returns the cached shapes of a valid template; callers must not
// modify the result.
func shapesOf(t Template) []Shape { return shapeTable[t] }
