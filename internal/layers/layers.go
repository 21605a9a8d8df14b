// Package layers states the floors of nlsat's packages and which floor may
// import which. It holds data only: its test lists every package's imports
// with go list and fails on an edge the rules forbid, and checks that the
// package table of docs/architecture.md names every package on the floor
// given here.
//
// # Floors
//
// From the bottom: leaves (the formula tree, the fragments, the SAT
// solver, small utilities) import only leaves. The solver floor (the
// Backend interface, proof search) and the backends above it, the generic
// engine (job, pipeline, progress) and the records each stand on the
// leaves; the engine knows nothing of the domain. Builds (which write
// datasets) and analyses (which read them) stand on all of these, and never
// on each other. A task (package task and one package per task) puts
// together the parts of one task that builds and analyses implement, for
// their generic drivers; it stands on both. The face (cmd/nlsat, its shared helpers, the scripts) may
// import anything, and is the only floor that chooses a backend.
package layers

import "strings"

// Floor is a layer of the project.
type Floor string

// The floors, from the bottom.
const (
	Leaf     Floor = "leaf"
	Solver   Floor = "solver"
	Backends Floor = "backends"
	Engine   Floor = "engine"
	Records  Floor = "records"
	Build    Floor = "build"
	Analysis Floor = "analysis"
	Tasks    Floor = "tasks"
	Face     Floor = "face"
)

// Floors lists the floors from the bottom, in the order the docs give them.
var Floors = []Floor{Leaf, Solver, Backends, Engine, Records, Build, Analysis, Tasks, Face}

// May says which floors a package of each floor may import. A floor not
// listed for another is forbidden to it.
var May = map[Floor][]Floor{
	Leaf:     {Leaf},
	Solver:   {Leaf, Solver},
	Backends: {Leaf, Solver, Backends},
	Engine:   {Leaf, Engine},
	Records:  {Leaf, Solver, Records},
	Build:    {Leaf, Solver, Engine, Records, Build},
	Analysis: {Leaf, Solver, Engine, Records, Analysis},
	Tasks:    {Leaf, Solver, Engine, Records, Build, Analysis, Tasks},
	Face:     {Leaf, Solver, Backends, Engine, Records, Build, Analysis, Tasks, Face},
}

// Packages gives every package of the module, by its path inside the
// module, its floor.
var Packages = map[string]Floor{
	"internal/fol":               Leaf,
	"internal/fragments":         Leaf,
	"internal/sat":               Leaf,
	"internal/ground":            Leaf,
	"internal/canon":             Leaf,
	"internal/figure":            Leaf,
	"internal/figure/figuretest": Leaf,
	"internal/golden":            Leaf,
	"internal/cardtest":          Leaf,
	"internal/provers":           Leaf,
	"internal/version":           Leaf,
	"internal/layers":            Leaf,
	"internal/inputerr":          Leaf,
	"internal/atomicfile":        Leaf,
	"internal/memlimit":          Leaf,
	"internal/learn":             Leaf,
	"internal/textfeat":          Leaf,
	"internal/binom":             Leaf,
	"internal/paperdata":         Leaf,

	"internal/solver":            Solver,
	"internal/solver/solvertest": Solver,
	"internal/proof":             Solver,

	"internal/solver/native":   Backends,
	"internal/solver/z3":       Backends,
	"internal/solver/backends": Backends,

	"internal/job":      Engine,
	"internal/pipeline": Engine,
	"internal/progress": Engine,

	"internal/dataset":             Records,
	"internal/entailrec":           Records,
	"internal/dataset/datasettest": Records,

	"internal/generate":    Build,
	"internal/split":       Build,
	"internal/split/units": Build,
	"internal/entail":      Build,
	"internal/phase":       Build,
	"internal/distract":    Build,
	"internal/pairs":       Build,

	"internal/audit":      Analysis,
	"internal/eval":       Analysis,
	"internal/stats":      Analysis,
	"internal/prompt":     Analysis,
	"internal/crosscheck": Analysis,

	"internal/task":            Tasks,
	"internal/task/satunsat":   Tasks,
	"internal/task/entailment": Tasks,

	"cmd/nlsat":          Face,
	"internal/cli":       Face,
	"scripts/fithardm":   Face,
	"scripts/paperband":  Face,
	"scripts/proofstats": Face,
}

// TaskDir holds the tasks' packages: a package under it that Packages
// does not list is on the tasks floor, so that a new task is its package
// and the line that registers it, and nothing else.
const TaskDir = "internal/task/"

// FloorOf returns the floor of the package at path (inside the module):
// Packages', or the tasks floor under TaskDir.
func FloorOf(path string) (Floor, bool) {
	if f, ok := Packages[path]; ok {
		return f, true
	}
	if strings.HasPrefix(path, TaskDir) {
		return Tasks, true
	}
	return "", false
}

// An Edge is an import of package To by package From (paths inside the
// module).
type Edge struct{ From, To string }

// Forbidden are edges the floors allow but a rule of its own forbids, each
// with the rule.
var Forbidden = map[Edge]string{
	// cli maps errors to exit codes and completes flags; the records'
	// errors reach it through the leaf that defines the user-error class.
	{"internal/cli", "internal/dataset"}: "the commands' shared helpers know no records",
}

// Uses are identifiers a package must not refer to, each with the rule:
// what the import table cannot see.
var Uses = map[string]map[string]string{
	"internal/dataset": {
		"proof.Find":     "records never run solvers: the builder searches for proofs",
		"solver.Backend": "records never run solvers: a record is given a verdict, never a backend",
	},
}

// Exceptions are forbidden edges that are still in the code, each with why
// it is there and what removes it. The test fails on a forbidden edge that
// is not listed here, and on one listed here that is gone.
var Exceptions = map[Edge]string{}
