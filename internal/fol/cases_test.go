package fol

// Shorthands for building the test tables.
var (
	u   = Unary
	bin = Binary
)

func not(f Formula) Formula         { return &Not{F: f} }
func imp(l, r Formula) Formula      { return &Implies{L: l, R: r} }
func all(v Var, f Formula) Formula  { return &Forall{V: v, Body: f} }
func some(v Var, f Formula) Formula { return &Exists{V: v, Body: f} }
func and(fs ...Formula) Formula     { return Conj(fs...) }
func or(fs ...Formula) Formula      { return Disj(fs...) }
func rawAnd(fs ...Formula) Formula  { return &And{Fs: fs} }
func rawOr(fs ...Formula) Formula   { return &Or{Fs: fs} }
func neg(pos bool, a *Atom) Formula { return Lit(pos, a) }
func px(p string) *Atom             { return u(p, "x") }
func py(p string) *Atom             { return u(p, "y") }
func rxy(r string) *Atom            { return bin(r, "x", "y") }
func ryx(r string) *Atom            { return bin(r, "y", "x") }
func every(l, r Formula) Formula    { return all("x", imp(l, r)) }
func everyY(l, r Formula) Formula   { return all("y", imp(l, r)) }
func someY(fs ...Formula) Formula   { return some("y", and(fs...)) }
func someX(fs ...Formula) Formula   { return some("x", and(fs...)) }

// namedFormula is one row of the printers' test table.
type namedFormula struct {
	name string
	f    Formula
}

// specCases has every shape of the template tables of docs/fragments.md,
// with negations placed so that each optional ¬ appears somewhere.
var specCases = []namedFormula{
	{"S1", every(px("artist"), px("beekeeper"))},
	{"S1-non", every(not(px("artist")), px("beekeeper"))},
	{"S2", every(px("p"), not(px("q")))},
	{"S3", someX(not(px("p")), not(px("q")))},
	{"W1", every(and(not(px("o")), px("p")), px("q"))},
	{"W2", every(and(px("o"), not(px("p"))), not(px("q")))},
	{"W3", someX(px("o"), not(px("p")), px("q"))},
	{"V1.every-every", every(px("p"), everyY(py("q"), rxy("r")))},
	{"V1.every-some", every(px("p"), someY(not(py("q")), rxy("r")))},
	{"V1.some-every", someX(px("p"), everyY(py("q"), rxy("r")))},
	{"V1.some-some", someX(not(px("p")), someY(py("q"), rxy("r")))},
	{"V2.any", every(px("p"), everyY(py("q"), not(rxy("r"))))},
	{"V2.every", every(px("p"), someY(py("q"), not(rxy("r"))))},
	{"V3.any", someX(px("p"), everyY(py("q"), not(rxy("r"))))},
	{"V3.every", someX(px("p"), someY(not(py("q")), not(rxy("r"))))},
	{"Z1.some", every(and(px("o"), someY(py("p"), rxy("r"))), px("q"))},
	{"Z1.every", every(and(px("o"), everyY(not(py("p")), rxy("r"))), px("q"))},
	{"Z1.not-any", every(and(not(px("o")), everyY(py("p"), not(rxy("r")))), px("q"))},
	{"Z1.not-every", every(and(px("o"), someY(py("p"), not(rxy("r")))), px("q"))},
	{"Z2.some", every(and(px("o"), someY(py("p"), rxy("r"))), not(px("q")))},
	{"Z3.every", someX(px("o"), everyY(py("p"), rxy("r")), not(px("q")))},
	{"A1.every-every.who", every(px("o"), everyY(and(py("p"), ryx("s")), rxy("r")))},
	{"A1.every-some.who-not", every(px("o"), someY(py("p"), not(ryx("s")), rxy("r")))},
	{"A1.some-every.who-not", someX(not(px("o")), everyY(and(py("p"), not(ryx("s"))), rxy("r")))},
	{"A1.some-some.who", someX(px("o"), someY(not(py("p")), ryx("s"), rxy("r")))},
	{"A2.any.who", every(px("o"), everyY(and(py("p"), ryx("s")), not(rxy("r"))))},
	{"A2.every.who-not", every(px("o"), someY(py("p"), not(ryx("s")), not(rxy("r"))))},
	{"A3.any.who", someX(px("artist"), everyY(and(py("beekeeper"), ryx("admire")), not(rxy("hate"))))},
	{"A3.every.who-not", someX(px("o"), someY(py("p"), not(ryx("s")), not(rxy("r"))))},
}

// cornerCases exercise precedence and naming corners the templates do not
// reach; each is closed so that the problem printers accept it too.
var cornerCases = []namedFormula{
	{"imp-right-nested", all("x", imp(px("p"), imp(px("q"), px("o"))))},
	{"imp-left-nested", all("x", imp(imp(px("p"), px("q")), px("o")))},
	{"imp-in-and", all("x", and(imp(px("p"), px("q")), px("o")))},
	{"imp-in-or", all("x", or(px("o"), imp(px("p"), px("q"))))},
	{"not-imp", all("x", not(imp(px("p"), px("q"))))},
	{"not-and", all("x", not(and(px("p"), px("q"))))},
	{"not-or", all("x", not(or(px("p"), px("q"))))},
	{"not-not", all("x", not(not(px("p"))))},
	{"not-forall", not(all("x", px("p")))},
	{"not-exists-top", not(some("x", not(px("p"))))},
	{"or-in-and", all("x", and(or(px("p"), px("q")), px("o")))},
	{"and-in-or", all("x", or(and(px("p"), px("q")), and(px("o"), not(px("p")))))},
	{"and-in-imp-right", all("x", imp(or(px("p"), px("q")), and(px("o"), px("p"))))},
	{"raw-and-in-and", all("x", rawAnd(px("p"), rawAnd(px("q"), px("o"))))},
	{"raw-or-in-or", all("x", rawOr(rawOr(px("p"), px("q")), px("o")))},
	{"quant-operands", and(all("x", px("p")), some("y", py("q")), not(all("x", px("o"))))},
	{"quant-left-of-imp", imp(some("x", px("p")), all("y", py("q")))},
	{"nested-quants", all("x", all("y", some("z", and(rxy("r"), bin("r", "y", "z")))))},
	{"shadowing", all("x", and(px("p"), some("x", not(px("p")))))},
	{"ternary", all("x", all("y", all("z", &Atom{Pred: "t", Args: []Var{"x", "y", "z"}})))},
	{"reflexive", some("x", bin("r", "x", "x"))},
	{"names", all("x_1", imp(u("p_2", "x_1"), some("yy", bin("admire_9", "x_1", "yy"))))},
	{"smt-reserved", all("let", imp(u("and", "let"), some("true", bin("ite", "let", "true"))))},
}

func allCases() []namedFormula {
	return append(append([]namedFormula(nil), specCases...), cornerCases...)
}

func caseFormulas(cs []namedFormula) []Formula {
	fs := make([]Formula, len(cs))
	for i, c := range cs {
		fs[i] = c.f
	}
	return fs
}
