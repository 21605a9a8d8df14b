package phase

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
)

// QuantBins is the number of bins of an existential share: bin b holds
// the shares in [b/10, (b+1)/10), and the last bin also holds 1.
const QuantBins = 10

// QuantCell counts the instances of one point whose quantifiers fall in
// one pair of bins. Subj is the bin of the share of existential
// quantifiers among the sentences' subject quantifiers (the outermost
// quantifier of each formula, which binds its subject); Obj is the bin of
// that share among the object quantifiers (every quantifier nested inside
// another: the object of a verb, in V, Z and A), or -1 when an instance
// has none.
type QuantCell struct {
	Subj  int `json:"subj"`
	Obj   int `json:"obj"`
	N     int `json:"n"`
	Sat   int `json:"sat"`
	Unsat int `json:"unsat"`
}

// Decided returns sat + unsat.
func (c QuantCell) Decided() int { return c.Sat + c.Unsat }

// quantBins returns the bins of the existential shares of the subject and
// object quantifiers of fs.
func quantBins(fs []fol.Formula) (subj, obj int) {
	var n [2][2]int // [subject, object][universal, existential]
	for _, f := range fs {
		role := 0 // the first quantifier met, depth first, is the outermost
		fol.Walk(f, func(g fol.Formula) bool {
			switch g.(type) {
			case *fol.Forall:
				n[role][0]++
				role = 1
			case *fol.Exists:
				n[role][1]++
				role = 1
			}
			return true
		})
	}
	bin := func(c [2]int) int {
		if c[0]+c[1] == 0 {
			return -1
		}
		return min(QuantBins*c[1]/(c[0]+c[1]), QuantBins-1)
	}
	return bin(n[0]), bin(n[1])
}

// addQuant counts an instance with status st in the cell (subj, obj) of
// e, keeping e.Quant sorted by subject and object bin.
func (e *Estimate) addQuant(subj, obj int, st solver.Status) {
	i, found := slices.BinarySearchFunc(e.Quant, [2]int{subj, obj}, func(c QuantCell, k [2]int) int {
		if c.Subj != k[0] {
			return c.Subj - k[0]
		}
		return c.Obj - k[1]
	})
	if !found {
		e.Quant = slices.Insert(e.Quant, i, QuantCell{Subj: subj, Obj: obj})
	}
	c := &e.Quant[i]
	c.N++
	switch st {
	case solver.Sat:
		c.Sat++
	case solver.Unsat:
		c.Unsat++
	}
}

// QuantHeader is the header of quantifiers.csv.
var QuantHeader = []string{"fragment", "m", "n1", "n2", "subj_exist_share", "obj_exist_share", "n", "sat", "unsat", "unknown"}

// binLabel is a bin's lower edge ("0.3" for [0.3, 0.4)), or "" for -1.
func binLabel(b int) string {
	if b < 0 {
		return ""
	}
	return strconv.FormatFloat(float64(b)/QuantBins, 'f', 1, 64)
}

// WriteQuantifiers writes, for every point, how many of its instances
// fall in each pair of quantifier bins and how many of those are sat and
// unsat; like points.csv it is byte-identical for the same sweep.
func WriteQuantifiers(w io.Writer, es []Estimate) error {
	cw := csv.NewWriter(w)
	cw.Write(QuantHeader)
	for _, e := range es {
		for _, c := range e.Quant {
			cw.Write([]string{e.Fragment.String(), itoa(e.M), itoa(e.N1), itoa(e.N2), binLabel(c.Subj), binLabel(c.Obj),
				itoa(c.N), itoa(c.Sat), itoa(c.Unsat), itoa(c.N - c.Decided())})
		}
	}
	cw.Flush()
	return cw.Error()
}

// parseBin reads a bin's label; "" is -1 where none is allowed.
func parseBin(s string, none bool) (int, error) {
	if s == "" && none {
		return -1, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	b := int(v*QuantBins + 0.5)
	if err != nil || b < 0 || b >= QuantBins || binLabel(b) != s {
		return 0, fmt.Errorf("%q is not a bin (0.0, 0.1, …, 0.9)", s)
	}
	return b, nil
}

// ReadQuantifiers parses a quantifiers.csv and adds its cells to the
// estimates of the same fragment and point; it returns how many cells it
// matched. Errors name the line.
func ReadQuantifiers(r io.Reader, es []Estimate) (int, error) {
	rows, err := readCSV(r, QuantHeader)
	if err != nil {
		return 0, err
	}
	index := pointIndex(es)
	matched := 0
	for li, row := range rows {
		f, p, c, err := parseQuantRow(row)
		if err != nil {
			return matched, fmt.Errorf("line %d: %w", li+2, err)
		}
		if i, ok := index[pointKey{f, p}]; ok {
			es[i].Quant = append(es[i].Quant, c)
			matched++
		}
	}
	return matched, nil
}

func parseQuantRow(row []string) (f fragments.Fragment, p Point, c QuantCell, err error) {
	f, p, err = parseKey(row)
	if err != nil {
		return 0, p, c, err
	}
	if c.Subj, err = parseBin(row[4], false); err != nil {
		return 0, p, c, fmt.Errorf("%s %w", QuantHeader[4], err)
	}
	if c.Obj, err = parseBin(row[5], true); err != nil {
		return 0, p, c, fmt.Errorf("%s %w", QuantHeader[5], err)
	}
	var unknown int
	for i, dst := range []*int{&c.N, &c.Sat, &c.Unsat, &unknown} {
		if *dst, err = strconv.Atoi(row[6+i]); err != nil || *dst < 0 {
			return 0, p, c, fmt.Errorf("%s %q is not a count", QuantHeader[6+i], row[6+i])
		}
	}
	if c.Sat+c.Unsat+unknown != c.N {
		return 0, p, c, fmt.Errorf("sat + unsat + unknown = %d, not n = %d", c.Sat+c.Unsat+unknown, c.N)
	}
	return f, p, c, nil
}
