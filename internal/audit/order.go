package audit

import (
	"fmt"
	"math"
	"strings"

	"github.com/nlsat/nlsat/internal/binom"
	"github.com/nlsat/nlsat/internal/dataset"
)

// Order. A file can give its labels away by its order alone: if records
// of one label come in runs, a record's neighbour tells its label; if a
// file is written in blocks whose halves hold one label each, a record's
// position within its block does. The order section looks at each split
// file as a sequence of labels, with every label of the task (three for
// entailment), and measures
//
//   - label runs: how often two records Lag apart share their label, for
//     every lag 1 to MaxLag, beside the chance of that, the sum of the
//     squared label shares (1/2 for a balanced sat/unsat file, 1/3 for a
//     balanced entailment file). A lag whose Wilson interval lies wholly
//     outside chance ± RunTolerance is a run, and a shortcut: the label of
//     one record, known or guessed, predicts its neighbours'.
//   - positions: a record's position in the file and the number its id
//     ends in, each taken modulo 2, 10, 20 and 100; each residue predicts
//     its majority label in train (train scored out of fold), as the
//     metadata fields do. A score whose Wilson interval's lower end
//     exceeds the majority label's share by more than PositionExcess is a
//     shortcut.
//
// nlsat writes blocks of 20 records with ten of each label in a random
// order, so two records of one block share their label with probability
// 9/19, not 1/2: at lag 1 about 47.5% of neighbours agree in a file of
// its own, inside the tolerance. A file of dataset.OrderMinRecords or
// more is written in an order whose every lag lies within RunTolerance
// of chance (dataset.LagDeviation).

// MaxLag is the largest lag whose label agreement the order section
// measures.
const MaxLag = dataset.OrderMaxLag

// RunTolerance is how far from chance a lag's agreement may lie.
const RunTolerance = dataset.OrderTolerance

// PositionExcess is how far above the majority share a position's
// accuracy may lie.
const PositionExcess = 0.02

// PositionMods are the moduli of the position and id fields.
var PositionMods = []int{2, 10, 20, 100}

// OrderSplit is the order audit of one split file.
type OrderSplit struct {
	Split   string `json:"split"`
	Records int    `json:"records"`
	// Chance is how often two records drawn apart share their label.
	Chance    float64    `json:"chance"`
	Lags      []LagScore `json:"lags"`
	Positions []Score    `json:"positions"`
	Verdict   Verdict    `json:"verdict"`
}

// LagScore is how often records Lag apart share their label.
type LagScore struct {
	Lag   int     `json:"lag"`
	Pairs int     `json:"pairs"`
	Same  int     `json:"same"`
	Rate  float64 `json:"rate"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	Run   bool    `json:"run"`
}

// positionField is a field of the order section: a record's position or
// id number modulo mod (-1 when the id has no number).
type positionField struct {
	name  string
	mod   int
	value func(it *item, pos int) int
}

func positionFields() []positionField {
	var out []positionField
	for _, m := range PositionMods {
		out = append(out, positionField{fmt.Sprintf("position-mod-%d", m), m, func(_ *item, pos int) int { return pos % m }})
	}
	for _, m := range PositionMods {
		out = append(out, positionField{fmt.Sprintf("id-number-mod-%d", m), m, func(it *item, _ int) int {
			if it.idNum < 0 {
				return -1
			}
			return it.idNum % m
		}})
	}
	return out
}

// orderReport audits the order of every split; splits[0] is train, whose
// residues' majority labels predict the others'.
func orderReport(splits []*split, labels int, o Options) []OrderSplit {
	fields := positionFields()
	train := splits[0]
	ytrain := labelsOf(train.items)
	var out []OrderSplit
	for _, s := range splits {
		y := labelsOf(s.items)
		os := OrderSplit{Split: s.name, Records: len(y), Chance: r4(dataset.ChanceAgreement(y, labels))}
		for lag := 1; lag <= MaxLag && lag < len(y); lag++ {
			os.Lags = append(os.Lags, lagScore(y, lag, os.Chance, o))
		}
		for _, f := range fields {
			var pred []int8
			if s == train {
				pred = residuePredictOutOfFold(train.items, ytrain, labels, f)
			} else {
				t := newResidueTable(train.items, ytrain, labels, f, func(int) bool { return true })
				pred = make([]int8, len(y))
				for i := range y {
					pred[i] = t.predict(f.value(&s.items[i], i))
				}
			}
			sc := score(f.name, pred, y, nil, o)
			sc.Above = sc.Lo > majorityShare(y, labels)+PositionExcess
			os.Positions = append(os.Positions, sc)
		}
		os.Verdict = orderVerdict(os)
		out = append(out, os)
	}
	return out
}

// majorityShare is the share of y's commonest label.
func majorityShare(y []int8, labels int) float64 {
	if len(y) == 0 {
		return 0
	}
	n := make([]int, labels)
	for _, l := range y {
		n[l]++
	}
	best := 0
	for _, k := range n {
		best = max(best, k)
	}
	return float64(best) / float64(len(y))
}

func lagScore(y []int8, lag int, chance float64, o Options) LagScore {
	ls := LagScore{Lag: lag, Pairs: len(y) - lag, Same: dataset.SameAt(y, lag)}
	iv := binom.Wilson(ls.Same, ls.Pairs, o.Confidence)
	ls.Rate, ls.Lo, ls.Hi = r4(float64(ls.Same)/float64(ls.Pairs)), r4(iv.Lo), r4(iv.Hi)
	ls.Run = iv.Lo > chance+RunTolerance || iv.Hi < chance-RunTolerance
	return ls
}

// residueTable is the majority label of each residue of a field among the
// train records with use set, and of all of them (the lowest label on a
// tie) for residues train lacks.
type residueTable struct {
	major   map[int]int8
	overall int8
}

func newResidueTable(items []item, y []int8, labels int, f positionField, use func(i int) bool) residueTable {
	n := map[int][]int{}
	all := make([]int, labels)
	for i := range items {
		if !use(i) {
			continue
		}
		v := f.value(&items[i], i)
		if n[v] == nil {
			n[v] = make([]int, labels)
		}
		n[v][y[i]]++
		all[y[i]]++
	}
	t := residueTable{major: map[int]int8{}, overall: argmax(all)}
	for v, k := range n {
		t.major[v] = argmax(k)
	}
	return t
}

func argmax(n []int) int8 {
	best := 0
	for l, k := range n {
		if k > n[best] {
			best = l
		}
	}
	return int8(best)
}

func (t residueTable) predict(v int) int8 {
	if l, ok := t.major[v]; ok {
		return l
	}
	return t.overall
}

// residuePredictOutOfFold predicts each train record from the table of
// the other half of train. The halves are whole blocks of 100 positions
// (or a record's group), so that a record's residue is seen in the other
// half at other positions, never its own.
func residuePredictOutOfFold(items []item, y []int8, labels int, f positionField) []int8 {
	fold := func(i int) int {
		if g := items[i].group(); g >= 0 {
			return g % 2
		}
		return (i / 100) % 2
	}
	pred := make([]int8, len(y))
	for h := range 2 {
		t := newResidueTable(items, y, labels, f, func(i int) bool { return fold(i) != h })
		for i := range y {
			if fold(i) == h {
				pred[i] = t.predict(f.value(&items[i], i))
			}
		}
	}
	return pred
}

// orderVerdict names the lags with runs and the position fields above
// their bound.
func orderVerdict(os OrderSplit) Verdict {
	v := Verdict{Leaks: []string{}}
	var descs []string
	runs, worst := 0, LagScore{}
	for _, l := range os.Lags {
		if l.Run {
			runs++
			if math.Abs(l.Rate-os.Chance) > math.Abs(worst.Rate-os.Chance) || worst.Lag == 0 {
				worst = l
			}
		}
	}
	if runs > 0 {
		v.Leaks = append(v.Leaks, "order:runs")
		descs = append(descs, fmt.Sprintf("label runs at %d of %d lags (at lag %d, %.1f%% of records share the label of the record %d places before; chance %.1f%%)",
			runs, len(os.Lags), worst.Lag, 100*worst.Rate, worst.Lag, 100*os.Chance))
	}
	var above []Score
	for _, s := range os.Positions {
		if s.Above {
			v.Leaks = append(v.Leaks, "order:"+s.Name)
			above = append(above, s)
		}
	}
	if len(above) > 0 {
		best := above[0]
		for _, s := range above[1:] {
			if s.Accuracy > best.Accuracy {
				best = s
			}
		}
		descs = append(descs, fmt.Sprintf("%d position fields predict the label, best %s %s", len(above), best.Name, accuracy(best)))
	}
	v.Shortcut = len(descs) > 0
	if v.Shortcut {
		v.Text = "the file's order gives the label away: " + strings.Join(descs, "; ")
		return v
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, l := range os.Lags {
		lo, hi = math.Min(lo, l.Rate), math.Max(hi, l.Rate)
	}
	if len(os.Lags) == 0 {
		lo, hi = 0, 0
	}
	v.Text = fmt.Sprintf("no order shortcut: neighbours at lags 1-%d share their label %.1f-%.1f%% of the time (chance %.1f%%); no position or id residue above the majority share by %s",
		len(os.Lags), 100*lo, 100*hi, 100*os.Chance, percent(PositionExcess))
	return v
}

// textOrder writes the order section: per split, the label agreement at
// every lag and each position field's score.
func textOrder(p func(string, ...any), order []OrderSplit) {
	if len(order) == 0 {
		return
	}
	p("\nOrder: how often records k apart in a file share their label (chance: the sum of squared label shares;\n")
	p("a run lies outside chance ± %s), and each residue of a position or id number predicting its majority label in train\n", percent(RunTolerance))
	p("lag")
	for _, os := range order {
		p("\t%s", os.Split)
	}
	p("\n")
	for k := range MaxLag {
		p("%d", k+1)
		for _, os := range order {
			if k >= len(os.Lags) {
				p("\t-")
				continue
			}
			l := os.Lags[k]
			mark := ""
			if l.Run {
				mark = " *"
			}
			p("\t%.1f [%.1f, %.1f]%s", 100*l.Rate, 100*l.Lo, 100*l.Hi, mark)
		}
		p("\n")
	}
	p("chance")
	for _, os := range order {
		p("\t%.1f", 100*os.Chance)
	}
	p("\n")
	for f := range order[0].Positions {
		p("%s", order[0].Positions[f].Name)
		for _, os := range order {
			p("\t%s", cell(os.Positions[f]))
		}
		p("\n")
	}
	for _, os := range order {
		p("%s: %s\n", os.Split, os.Verdict.Text)
	}
}
