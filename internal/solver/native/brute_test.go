package native

import (
	"github.com/nlsat/nlsat/internal/fol"
)

// bruteModel searches every structure with 1..maxSize elements over the
// signature of fs (skipping sizes whose structure count exceeds maxBits
// bits) and returns the first model found. It is independent of the
// decider: it evaluates the original formulas.
func bruteModel(fs []fol.Formula, maxSize, maxBits int) (*fol.Structure, bool) {
	sig, err := fol.SignatureOf(fs...)
	if err != nil {
		panic(err)
	}
	var un, bin []string
	for p, k := range sig {
		if k == 1 {
			un = append(un, p)
		} else {
			bin = append(bin, p)
		}
	}
	for n := 1; n <= maxSize; n++ {
		nbits := len(un)*n + len(bin)*n*n
		if nbits > maxBits {
			break
		}
		st := fol.NewStructure(n, sig)
		for code := uint64(0); code < 1<<nbits; code++ {
			decode(st, un, bin, code)
			if allTrue(fs, st) {
				return st, true
			}
		}
	}
	return nil, false
}

func decode(st *fol.Structure, un, bin []string, code uint64) {
	n := st.Size
	for _, p := range un {
		for a := range n {
			st.Unary[p][a] = code&1 != 0
			code >>= 1
		}
	}
	for _, r := range bin {
		for a := range n {
			for b := range n {
				st.Binary[r][a][b] = code&1 != 0
				code >>= 1
			}
		}
	}
}

func allTrue(fs []fol.Formula, st *fol.Structure) bool {
	for _, f := range fs {
		if ok, err := fol.Eval(f, st); err != nil || !ok {
			return false
		}
	}
	return true
}
