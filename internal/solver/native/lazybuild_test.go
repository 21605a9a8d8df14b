package native

import (
	"context"
	"slices"
	"testing"

	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/solvertest"
)

// TestBuildRemove checks what a restart keeps of BUILD's state: the
// members outside the nogood's region (and other than the failed member)
// in their order, their witnesses renumbered, a member whose witness was
// removed to be processed again, and a fresh predicate whose key was
// removed to be chosen again.
func TestBuildRemove(t *testing.T) {
	// Members 0..4 with patterns 0b0001, 0b0011, 0b0100, 0b0110, 0b1000.
	// The region is "noun 1 holds": it holds members 1 and 3.
	pats := []uint64{0b0001, 0b0011, 0b0100, 0b0110, 0b1000}
	region := guard[p1]{mask: p1{0b0010}, val: p1{0b0010}, c: -1}
	tests := []struct {
		name     string
		failed   int // the member found not viable; -1 none
		done     []bool
		wit      [][]int
		keys     []int
		members  []uint64
		wantWit  [][]int // of the members still done
		wantDone []bool
		wantKeys []int
	}{
		{
			name:    "witnesses renumbered, a member losing its witness undone",
			failed:  4,
			done:    []bool{true, true, true, true, false},
			wit:     [][]int{{2, -1}, {0}, {0, 2}, {}, nil},
			keys:    []int{0, 1},
			members: []uint64{0b0001, 0b0100},
			// 0 keeps witness 2 (now 1); 2 keeps 0 and itself (now 1).
			wantWit:  [][]int{{1, -1}, {0, 1}},
			wantDone: []bool{true, true},
			wantKeys: []int{0, -1},
		},
		{
			name:     "a witness removed",
			failed:   -1,
			done:     []bool{true, true, true, true, true},
			wit:      [][]int{{3}, {}, {4}, {}, {}},
			keys:     []int{2, 4},
			members:  []uint64{0b0001, 0b0100, 0b1000},
			wantWit:  [][]int{nil, {2}, {}},
			wantDone: []bool{false, true, true},
			wantKeys: []int{1, 2},
		},
		{
			name:     "members not yet processed stay unprocessed",
			failed:   2,
			done:     []bool{true, true},
			wit:      [][]int{{1}, {0}},
			keys:     []int{0},
			members:  []uint64{0b0001, 0b1000},
			wantDone: []bool{false, false},
			wantKeys: []int{0},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := lzBuild[p1]{b: builder[p1]{ts: &typeSet[p1]{}}, keys: slices.Clone(tc.keys), done: slices.Clone(tc.done)}
			for i, u := range pats {
				st.b.ts.members = append(st.b.ts.members, &kinfo[p1]{k: key[p1]{u: p1{u}, c: -1}})
				if i < len(tc.wit) {
					st.b.ts.wit = append(st.b.ts.wit, slices.Clone(tc.wit[i]))
					st.b.ts.rho = append(st.b.ts.rho, []bool{i%2 == 0})
				}
			}
			st.remove(region, tc.failed)
			var got []uint64
			for _, m := range st.b.ts.members {
				got = append(got, m.k.u[0])
			}
			if !slices.Equal(got, tc.members) {
				t.Fatalf("members %b, want %b", got, tc.members)
			}
			if !slices.Equal(st.done, tc.wantDone) {
				t.Fatalf("done %v, want %v", st.done, tc.wantDone)
			}
			if !slices.Equal(st.keys, tc.wantKeys) {
				t.Errorf("keys %v, want %v", st.keys, tc.wantKeys)
			}
			for i, d := range st.done {
				if !d {
					continue
				}
				if !slices.Equal(st.b.ts.wit[i], tc.wantWit[i]) {
					t.Errorf("member %d: witnesses %v, want %v", i, st.b.ts.wit[i], tc.wantWit[i])
				}
				// rho moves with its member: pats' index parity.
				if want := slices.Index(pats, got[i])%2 == 0; st.b.ts.rho[i][0] != want {
					t.Errorf("member %d: rho %v, want %v", i, st.b.ts.rho[i][0], want)
				}
			}
		})
	}
}

// TestBuildGoesOn decides A instances of many nouns on which the lazy
// search learns tens of nogoods, each a restart of BUILD, with BUILD
// going on from its last state (the default) and starting afresh each
// time. Both must give the same answer with a checked model or core, and
// going on must process under half the members starting afresh does.
func TestBuildGoesOn(t *testing.T) {
	tests := []struct {
		file string
		want solver.Status
	}{
		{"testdata/a64-restarts-unsat.txt", solver.Unsat},
		{"testdata/a64-restarts-unsat2.txt", solver.Unsat},
		{"testdata/a48-restarts-sat.txt", solver.Sat},
	}
	for _, tc := range tests {
		p := &solver.Problem{Sentences: solvertest.ReadSentences(t, tc.file)}
		var processed [2]float64
		for i, rebuild := range []bool{false, true} {
			res, err := New(Options{rebuild: rebuild}).Solve(context.Background(), p)
			if err != nil || res.Status != tc.want {
				t.Fatalf("%s (rebuild %v): %v %v, want %v", tc.file, rebuild, res.Status, err, tc.want)
			}
			if res.Stats["nogoods"] < 20 {
				t.Fatalf("%s: %v nogoods; the instance no longer restarts BUILD often", tc.file, res.Stats["nogoods"])
			}
			processed[i] = res.Stats["processed"]
		}
		if 2*processed[0] >= processed[1] {
			t.Errorf("%s: BUILD going on processed %v members, starting afresh %v: want under half",
				tc.file, processed[0], processed[1])
		}
	}
}
