package canon_test

import (
	"fmt"

	"github.com/nlsat/nlsat/internal/canon"
	"github.com/nlsat/nlsat/internal/fragments"
)

func ExampleKey() {
	instance := func(text string) fragments.Instance {
		ss, err := fragments.ParseText(text)
		if err != nil {
			panic(err)
		}
		return fragments.Instance{Fragment: fragments.V, Sentences: ss}
	}
	a := instance("Every actor admires some acrobat. Some acrobat does not admire any non-actor.")
	b := instance("Some artist does not hate any non-baker. Every baker hates some artist.")
	c := instance("Some artist does not hate any baker. Every baker hates some artist.")
	fmt.Println(canon.Key(a) == canon.Key(b), canon.ExactKey(a) == canon.ExactKey(b))
	fmt.Println(canon.Key(b) == canon.Key(c))
	fmt.Println(canon.Digest(canon.Key(a)) == canon.Digest(canon.Key(b)))
	// Output:
	// true false
	// false
	// true
}
