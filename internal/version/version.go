// Package version names this build of nlsat: its version and the source
// revision it was built from, for --version and for the manifests of the
// files it writes.
package version

import "runtime/debug"

// version and commit are set at link time (the Makefile passes
// -ldflags "-X github.com/nlsat/nlsat/internal/version.version=…");
// otherwise the build info is used.
var version, commit string

// Version returns the toolkit's version: the one set at link time, else
// the module version from the build info, else 0.1.0-dev.
func Version() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "0.1.0-dev"
}

// Commit returns the source revision ("-dirty" when the tree had
// changes), set at link time or recorded by the go command; "" when
// unknown.
func Commit() string {
	if commit != "" {
		return commit
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev != "" && dirty {
		rev += "-dirty"
	}
	return rev
}
