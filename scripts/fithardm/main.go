// Command fithardm fits phase.HardM's coefficients to the crossings of a
// default phase sweep (DIR/F/crossings.csv for every fragment F) and
// prints them as Go, with the largest deviation of a crossing from its
// fit. scripts/regions.sh runs it.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/phase"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: fithardm SWEEP_DIR")
		os.Exit(2)
	}
	for _, f := range fragments.All() {
		name := filepath.Join(os.Args[1], f.String(), "crossings.csv")
		file, err := os.Open(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		cs, err := phase.ReadCrossings(file)
		file.Close()
		if err == nil {
			var coef [3]float64
			var dev float64
			if coef, dev, err = phase.FitHardM(cs); err == nil {
				fmt.Printf("\tfragments.%s: {%.3f, %.3f, %.3f}, // %d crossings, largest deviation %.1f\n", f, coef[0], coef[1], coef[2], len(cs), dev)
				continue
			}
		}
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(1)
	}
}
