package textfeat

import (
	"math/rand/v2"
	"testing"

	"github.com/nlsat/nlsat/internal/fragments"
)

// The skeleton tells nouns from verbs by the grammar alone; on sampled
// instances of every fragment it counts exactly the instance's nouns and
// verbs (the third-person forms of its verbs are the verb words it sees).
func TestStructureFindsNounsAndVerbs(t *testing.T) {
	for _, f := range []fragments.Fragment{fragments.S, fragments.W, fragments.V, fragments.Z, fragments.A} {
		n2 := 0
		if f.HasVerbs() {
			n2 = 4
		}
		for seed := range uint64(50) {
			inst, err := fragments.Sample(rand.New(rand.NewPCG(seed, 7)), f, fragments.DefaultParams(), 12, 5, n2)
			if err != nil {
				t.Fatal(err)
			}
			nouns, verbs := map[string]bool{}, map[string]bool{}
			for _, s := range inst.Sentences {
				for _, n := range s.Nouns() {
					nouns[n] = true
				}
				for _, v := range s.Verbs() {
					verbs[v] = true
				}
			}
			_, st := Structure(inst.English())
			if int(st[sNouns]) != len(nouns) || int(st[sVerbs]) < len(verbs) || int(st[sVerbs]) > 2*len(verbs) {
				t.Fatalf("%s seed %d: structure counts %v nouns and %v verb forms, the instance has %d nouns and %d verbs: %q",
					f, seed, st[sNouns], st[sVerbs], len(nouns), len(verbs), inst.Text())
			}
		}
	}
}

// BenchmarkStructure reads the structure of benchSentences.
func BenchmarkStructure(b *testing.B) {
	ss := benchSentences()
	for b.Loop() {
		Structure(ss)
	}
}
