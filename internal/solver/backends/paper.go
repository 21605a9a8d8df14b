package backends

import (
	"fmt"
	"time"

	"github.com/nlsat/nlsat/internal/inputerr"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/z3"
)

// Labellers lists the labellers of a phase sweep: native (nlsat's
// complete decider, the default) and paper (PaperLabeller).
func Labellers() []string { return []string{"native", "paper"} }

// PaperLabeller returns a constructor of one worker's backend that labels
// as the paper did: one plain quantified Z3 check per instance (z3.Options
// Plain: no finite-model search, no further seeds) within Z3's default
// resource limit (z3.DefaultRLimit units, deterministic) and the
// wall-clock timeout, and a sentence describing it for region files. The
// paper states no limit; whatever Z3 leaves undecided is Unknown, which a
// sweep counts and drops from P(sat), as the paper's code dropped it.
//
// Its answers are only ever used to decide where a sweep's band lies,
// never as a dataset's labels: Factory does not offer it.
func PaperLabeller(timeout time.Duration) (func() (solver.Backend, error), string, error) {
	if !z3.Available() {
		return nil, "", inputerr.Errorf("--labeller paper: this nlsat was built without Z3 (install libz3-dev and rebuild with make)")
	}
	if timeout <= 0 {
		timeout = z3.DefaultTimeout
	}
	newBackend := func() (solver.Backend, error) {
		b, err := z3.New(z3.Options{Timeout: timeout, Plain: true})
		if err != nil {
			return nil, fmt.Errorf("z3 backend: %w", err)
		}
		return b, nil
	}
	return newBackend, PaperDescription(z3.Version(), timeout), nil
}

// PaperDescription is the labeller sentence of a paper-labeller sweep
// with Z3 of the given version.
func PaperDescription(version string, timeout time.Duration) string {
	return fmt.Sprintf("paper: one plain Z3 %s quantified check per instance (resource limit %d units, timeout %s); unknowns counted and dropped from P(sat)",
		version, z3.DefaultRLimit, timeout)
}
