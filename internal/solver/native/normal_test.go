package native

import (
	"errors"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
)

func r(pos bool) fol.Formula { return fol.Lit(pos, fol.Binary("r", vx, vy)) }

// TestNormalizeTemplates checks the generic translation against the
// per-template table of the design (docs/design/decider.md, section 1),
// one row per template shape of docs/fragments.md.
func TestNormalizeTemplates(t *testing.T) {
	o, p, q := ul(true, "o", vx), ul(true, "p", vx), ul(true, "q", vx)
	np, nq := ul(false, "p", vx), ul(false, "q", vx)
	py, npy := ul(true, "p", vy), ul(false, "p", vy)
	qy, nqy := ul(true, "q", vy), ul(false, "q", vy)
	tests := []struct {
		name string
		f    fol.Formula
		want string
	}{
		{"S1 every non-p is q", every(np, q), "M p ∨ q"},
		{"S2 no p is q", every(p, nq), "M ¬p ∨ ¬q"},
		{"S3 some non-p is not q", some(np, nq), "M ¬c0 ∨ ¬p; M ¬c0 ∨ ¬q; ∃ c0"},
		{"W1", every(fol.Conj(ul(false, "o", vx), p), q), "M o ∨ ¬p ∨ q"},
		{"W2", every(fol.Conj(o, np), nq), "M ¬o ∨ p ∨ ¬q"},
		{"W3", some(fol.Conj(o, np), nq), "M ¬c0 ∨ o; M ¬c0 ∨ ¬p; M ¬c0 ∨ ¬q; ∃ c0"},
		{"V1 ee", every(p, obj(false, nqy, true, "r")), "C {p} {¬q} {r(x,y)}"},
		{"V2 any", every(p, obj(false, qy, false, "r")), "C {p} {q} {¬r(x,y)}"},
		{"V1 es", every(np, obj(true, qy, true, "r")), "Q {¬p} {q} {r(x,y)}"},
		{"V2 every", every(p, obj(true, qy, false, "r")), "Q {p} {q} {¬r(x,y)}"},
		{"V1 se", some(p, obj(false, qy, true, "r")), "C {c0} {q} {r(x,y)}; M ¬c0 ∨ p; ∃ c0"},
		{"V3 any", some(p, obj(false, qy, false, "r")), "C {c0} {q} {¬r(x,y)}; M ¬c0 ∨ p; ∃ c0"},
		{"V1 ss", some(p, obj(true, qy, true, "r")), "M ¬c0 ∨ p; Q {c0} {q} {r(x,y)}; ∃ c0"},
		{"V3 every", some(p, obj(true, qy, false, "r")), "M ¬c0 ∨ p; Q {c0} {q} {¬r(x,y)}; ∃ c0"},
		{"Z1 r's some", every(fol.Conj(o, obj(true, py, true, "r")), q), "C {o,¬q} {p} {¬r(x,y)}"},
		{"Z1 r's every", every(fol.Conj(o, obj(false, py, true, "r")), q), "Q {o,¬q} {p} {¬r(x,y)}"},
		{"Z1 not r any", every(fol.Conj(o, obj(false, npy, false, "r")), q), "Q {o,¬q} {¬p} {r(x,y)}"},
		{"Z1 not r every", every(fol.Conj(o, obj(true, py, false, "r")), q), "C {o,¬q} {p} {r(x,y)}"},
		{"Z2 r's some", every(fol.Conj(o, obj(true, py, true, "r")), nq), "C {o,q} {p} {¬r(x,y)}"},
		{"Z2 not r any", every(fol.Conj(o, obj(false, py, false, "r")), nq), "Q {o,q} {p} {r(x,y)}"},
		{"Z3 r's some", some(fol.Conj(o, obj(true, py, true, "r")), nq),
			"M ¬c0 ∨ o; M ¬c0 ∨ ¬q; Q {c0} {p} {r(x,y)}; ∃ c0"},
		{"Z3 r's every", some(fol.Conj(o, obj(false, py, true, "r")), q),
			"C {c0} {p} {r(x,y)}; M ¬c0 ∨ o; M ¬c0 ∨ q; ∃ c0"},
		{"Z3 not r any", some(fol.Conj(o, obj(false, py, false, "r")), q),
			"C {c0} {p} {¬r(x,y)}; M ¬c0 ∨ o; M ¬c0 ∨ q; ∃ c0"},
		{"Z3 not r every", some(fol.Conj(o, obj(true, py, false, "r")), q),
			"M ¬c0 ∨ o; M ¬c0 ∨ q; Q {c0} {p} {¬r(x,y)}; ∃ c0"},
		{"A1 every every who s's", every(o, obj(false, arc(true, "p", true, "s"), true, "r")),
			"C {o} {p} {r(x,y),¬s(y,x)}"},
		{"A2 no any who not s", every(o, obj(false, arc(true, "p", false, "s"), false, "r")),
			"C {o} {p} {s(y,x),¬r(x,y)}"},
		{"A1 every some", every(o, obj(true, arc(false, "p", true, "s"), true, "r")),
			"Q {o} {¬p} {r(x,y),s(y,x)}"},
		{"A2 no every who not s", every(o, obj(true, arc(true, "p", false, "s"), false, "r")),
			"Q {o} {p} {¬r(x,y),¬s(y,x)}"},
		{"A1 some every", some(o, obj(false, arc(true, "p", true, "s"), true, "r")),
			"C {c0} {p} {r(x,y),¬s(y,x)}; M ¬c0 ∨ o; ∃ c0"},
		{"A3 some not any", some(o, obj(false, arc(true, "p", true, "s"), false, "r")),
			"C {c0} {p} {¬r(x,y),¬s(y,x)}; M ¬c0 ∨ o; ∃ c0"},
		{"A3 some not every", some(o, obj(true, arc(true, "p", true, "s"), false, "r")),
			"M ¬c0 ∨ o; Q {c0} {p} {s(y,x),¬r(x,y)}; ∃ c0"},
		{"A r = s", every(o, obj(false, arc(true, "p", true, "r"), true, "r")),
			"C {o} {p} {r(x,y),¬r(y,x)}"},
		{"vacuous guard W1 o = p", every(fol.Conj(o, ul(false, "o", vx)), q), ""},
		{"vacuous guard Z1 o = q", every(fol.Conj(q, obj(true, py, true, "r")), q), ""},
		{"other variable names", all("u", imp(fol.Unary("p", "u"), all("v", imp(fol.Unary("q", "v"), fol.Binary("r", "u", "v"))))),
			"C {p} {q} {r(x,y)}"},
	}
	for _, tc := range tests {
		n, err := normalize[p1]([]fol.Formula{tc.f})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got := strings.Join(n.items(), "; "); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// TestNormalizeUnsupported checks that shapes outside the fragments are
// errors wrapping ErrUnsupported that name the sentence.
func TestNormalizeUnsupported(t *testing.T) {
	rxy := fol.Binary("r", vx, vy)
	tests := []struct {
		name string
		f    fol.Formula
	}{
		{"not quantified", fol.Unary("p", vx)},
		{"reflexive atom", all(vx, fol.Binary("r", vx, vx))},
		{"reflexive atom inside", all(vx, ex(vy, fol.Conj(ul(true, "p", vy), fol.Binary("r", vy, vy))))},
		{"two big literals", all(vx, fol.Disj(ex(vy, rxy), all(vy, rxy)))},
		{"depth three", all(vx, all(vy, ex("z", fol.Binary("r", vy, "z"))))},
		{"disjunction under exists", all(vx, ex(vy, fol.Disj(ul(true, "p", vy), rxy)))},
		{"ternary", all(vx, &fol.Atom{Pred: "t", Args: []fol.Var{vx, vx, vx}})},
		{"binary at outer level", all(vx, fol.Disj(ul(true, "p", vx), fol.Binary("r", vx, "z")))},
		{"re-bound variable", all(vx, all(vx, ul(true, "p", vx)))},
		{"free variable", all(vx, all(vy, fol.Binary("r", vx, "z")))},
	}
	for _, tc := range tests {
		_, err := normalize[p1]([]fol.Formula{every(ul(true, "a", vx), ul(true, "b", vx)), tc.f})
		if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "sentence 2") {
			t.Errorf("%s: got %v, want an unsupported-shape error for sentence 2", tc.name, err)
		}
	}
}
