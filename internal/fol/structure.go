package fol

// Structure is a finite first-order structure with domain {0, …, Size-1}.
// Unary[p][a] says whether p(a) holds; Binary[r][a][b] whether r(a, b)
// holds. A predicate missing from the maps is empty everywhere.
type Structure struct {
	Size   int
	Unary  map[string][]bool
	Binary map[string][][]bool
}

// NewStructure returns a structure of the given size with every predicate
// of sig present and empty.
func NewStructure(size int, sig Signature) *Structure {
	s := &Structure{Size: size, Unary: map[string][]bool{}, Binary: map[string][][]bool{}}
	for p, k := range sig {
		switch k {
		case 1:
			s.Unary[p] = make([]bool, size)
		case 2:
			m := make([][]bool, size)
			for i := range m {
				m[i] = make([]bool, size)
			}
			s.Binary[p] = m
		}
	}
	return s
}
