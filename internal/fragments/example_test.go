package fragments_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/nlsat/nlsat/internal/fragments"
)

func ExampleParse() {
	s, err := fragments.Parse("Some artist does not hate any beekeeper who admires him.")
	if err != nil {
		panic(err)
	}
	fmt.Println(s.ID(), s.Fragment(), s.Nouns(), s.Verbs())
	_, err = fragments.Parse("Every artist admire some beekeeper.")
	fmt.Println(err)
	// Output:
	// A3.any.who A [artist beekeeper] [hate admire]
	// "Every artist admire some beekeeper.": word 3 "admire": expected a verb in the third person (admires) or "is" or "who"
}

func ExampleSample() {
	rng := rand.New(rand.NewPCG(1, 2))
	in, err := fragments.Sample(rng, fragments.V, fragments.DefaultParams(), 3, 4, 2)
	if err != nil {
		panic(err)
	}
	for i, e := range in.English() {
		fmt.Println(in.IDs()[i], "|", e)
	}
}

func ExampleValidate() {
	fmt.Println(fragments.Validate(fragments.W, fragments.DefaultParams(), 10, 2, 0))
	// Output:
	// fragment W needs n1 >= 3 (a sentence uses 3 distinct nouns), got 2
}
