package cli

import (
	"runtime"

	"github.com/nlsat/nlsat/internal/solver/z3"
	"github.com/nlsat/nlsat/internal/version"
)

// Version is what --version prints after "nlsat version ": the toolkit's
// version, its commit, the Go release it was built with and whether the
// Z3 backend is compiled in, with the version the linked libz3 reports.
func Version() string {
	commit := version.Commit()
	if commit == "" {
		commit = "unknown"
	}
	return version.Version() + "\ncommit: " + commit + "\ngo: " + runtime.Version() + "\nZ3 backend: " + Z3Backend()
}

// Z3Backend says whether the Z3 backend is compiled in, and which libz3
// it runs on.
func Z3Backend() string {
	if !z3.Available() {
		return "not compiled in (built with -tags noz3)"
	}
	return "libz3 " + z3.Version()
}
