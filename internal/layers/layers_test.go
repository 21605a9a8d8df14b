package layers

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/nlsat/nlsat"

// pkg is what go list says of one package of the module.
type pkg struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	CgoFiles   []string
	Imports    []string
	Error      *struct{ Err string }
}

// list runs go list on the module's packages with the given build tags and
// returns them by their path inside the module.
func list(t *testing.T, tags string) map[string]pkg {
	t.Helper()
	if p, ok := listed[tags]; ok {
		return p
	}
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to list imports: %v", err)
	}
	args := []string{"list", "-e", "-json=ImportPath,Dir,GoFiles,CgoFiles,Imports,Error"}
	if tags != "" {
		args = append(args, "-tags", tags)
	}
	cmd := exec.Command(gocmd, append(args, "./...")...)
	cmd.Dir = filepath.Join("..", "..")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	pkgs := map[string]pkg{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		if p.Error != nil {
			t.Fatalf("go list %s: %s", p.ImportPath, p.Error.Err)
		}
		pkgs[strings.TrimPrefix(p.ImportPath, module+"/")] = p
		track(p)
	}
	listed[tags] = pkgs
	return pkgs
}

// track stats p's directory, the directories above it and its files, so
// that go test's cache, which knows the files a test reads but not those
// go list reads for it, runs the test again when one of them changes or
// a package appears.
func track(p pkg) {
	for _, name := range append(p.GoFiles, p.CgoFiles...) {
		os.Stat(filepath.Join(p.Dir, name))
	}
	for dir := p.Dir; ; dir = filepath.Dir(dir) {
		os.Stat(dir)
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil || filepath.Dir(dir) == dir {
			break
		}
	}
}

// listed keeps what list returned, by build tags: the tests of a run
// share one go list per tag set.
var listed = map[string]map[string]pkg{}

// inModule returns an import path's path inside the module, or false for
// a package of the standard library or another module.
func inModule(path string) (string, bool) {
	return strings.CutPrefix(path, module+"/")
}

// violations returns the forbidden edges among pkgs, each with its rule.
func violations(pkgs map[string]pkg, floors map[string]Floor) map[Edge]string {
	bad := map[Edge]string{}
	for from, p := range pkgs {
		ff, ok := floors[from]
		if !ok {
			continue // reported by TestEveryPackageHasAFloor
		}
		for _, imp := range p.Imports {
			to, ok := inModule(imp)
			if !ok {
				continue
			}
			e := Edge{from, to}
			tf, ok := floors[to]
			switch {
			case !ok:
				continue
			case !slices.Contains(May[ff], tf):
				bad[e] = fmt.Sprintf("the %s floor may not import the %s floor", ff, tf)
			case Forbidden[e] != "":
				bad[e] = Forbidden[e]
			}
		}
	}
	return bad
}

// TestEveryPackageHasAFloor: a new package must be given its floor, and a
// package that is gone must leave the table.
func TestEveryPackageHasAFloor(t *testing.T) {
	pkgs := list(t, "")
	for path := range pkgs {
		if _, ok := FloorOf(path); !ok {
			t.Errorf("package %s has no floor: add it to Packages in internal/layers and to docs/architecture.md", path)
		}
	}
	for path, f := range Packages {
		if _, ok := pkgs[path]; !ok {
			t.Errorf("Packages gives %s the floor %s, but there is no such package", path, f)
		}
		if _, ok := May[f]; !ok {
			t.Errorf("package %s: floor %q is not one of %v", path, f, Floors)
		}
	}
}

// TestImportsKeepTheFloors fails on every import that breaks a rule and is
// not a listed exception, with and without the Z3 backend's build tag, and
// on an exception that no longer occurs.
func TestImportsKeepTheFloors(t *testing.T) {
	seen := map[Edge]string{}
	for _, tags := range []string{"", "noz3"} {
		pkgs := list(t, tags)
		floors := maps.Clone(Packages)
		for path := range pkgs {
			floors[path], _ = FloorOf(path)
		}
		maps.Copy(seen, violations(pkgs, floors))
	}
	for _, e := range slices.SortedFunc(maps.Keys(seen), func(a, b Edge) int {
		return cmp.Or(strings.Compare(a.From, b.From), strings.Compare(a.To, b.To))
	}) {
		if _, ok := Exceptions[e]; !ok {
			t.Errorf("%s imports %s: %s", e.From, e.To, seen[e])
		}
	}
	for e := range Exceptions {
		if _, ok := seen[e]; !ok {
			t.Errorf("exception %s → %s: the import is gone; remove it from Exceptions and docs/architecture.md", e.From, e.To)
		}
	}
}

// TestUses fails when a package refers to an identifier its rules forbid.
func TestUses(t *testing.T) {
	pkgs := list(t, "")
	for path, denied := range Uses {
		p, ok := pkgs[path]
		if !ok {
			t.Errorf("Uses names %s, which is not a package", path)
			continue
		}
		for _, name := range append(p.GoFiles, p.CgoFiles...) {
			for _, use := range uses(t, filepath.Join(p.Dir, name)) {
				if rule, ok := denied[use.name]; ok {
					t.Errorf("%s: %s uses %s: %s", use.pos, path, use.name, rule)
				}
			}
		}
	}
}

type use struct {
	pos  token.Position
	name string
}

// uses returns the qualified identifiers (package name as imported, dot,
// name) that file refers to, with the package named by the last element
// of its import path unless the import renames it.
func uses(t *testing.T, file string) []use {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		local := path[strings.LastIndex(path, "/")+1:]
		if im.Name != nil {
			local = im.Name.Name
		}
		names[local] = local
	}
	var out []use
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if x, ok := sel.X.(*ast.Ident); ok && names[x.Name] != "" {
			out = append(out, use{fset.Position(sel.Pos()), names[x.Name] + "." + sel.Sel.Name})
		}
		return true
	})
	return out
}

// TestArchitectureDoc: the package table of docs/architecture.md has a
// row for every package, on the floor Packages gives it, and every
// exception is named there.
func TestArchitectureDoc(t *testing.T) {
	const doc = "../../docs/architecture.md"
	f, err := os.Open(doc)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows := map[string]Floor{}
	var text strings.Builder
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text.WriteString(sc.Text() + "\n")
		cells := strings.Split(sc.Text(), "|")
		if len(cells) < 4 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		path := strings.Trim(strings.TrimSpace(cells[1]), "`")
		floor := Floor(strings.TrimSpace(cells[2]))
		if _, ok := rows[path]; ok {
			t.Errorf("%s:%d: %s has a second row", doc, line, path)
		}
		rows[path] = floor
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for path, want := range Packages {
		got, ok := rows[path]
		switch {
		case !ok:
			t.Errorf("%s: no row for package %s (floor %s)", doc, path, want)
		case got != want:
			t.Errorf("%s: package %s is on floor %q there, %q in internal/layers", doc, path, got, want)
		}
	}
	for path := range rows {
		if _, ok := Packages[path]; !ok {
			t.Errorf("%s: a row for %s, which internal/layers does not know", doc, path)
		}
	}
	for e := range Exceptions {
		if !strings.Contains(text.String(), "`"+e.From+"` → `"+e.To+"`") {
			t.Errorf("%s does not name the exception `%s` → `%s`", doc, e.From, e.To)
		}
	}
}

// TestViolations: the check sees a forbidden edge, a forbidden edge of its
// own, and lets an allowed one pass.
func TestViolations(t *testing.T) {
	floors := map[string]Floor{"a": Engine, "b": Records, "c": Leaf, "internal/cli": Face, "internal/dataset": Records}
	pkgs := map[string]pkg{
		"a":            {Imports: []string{module + "/b", module + "/c", "fmt"}},
		"b":            {Imports: []string{module + "/c"}},
		"c":            {},
		"internal/cli": {Imports: []string{module + "/internal/dataset", module + "/c"}},
	}
	got := violations(pkgs, floors)
	want := map[Edge]bool{{"a", "b"}: true, {"internal/cli", "internal/dataset"}: true}
	if len(got) != len(want) {
		t.Errorf("got %v, want the edges %v", got, want)
	}
	for e := range want {
		if got[e] == "" {
			t.Errorf("edge %v: no violation reported", e)
		}
	}
}

// TestHelpLivesInTheFace: help texts and flag usage strings are the
// face's. A package below it that declares a constant or variable named
// like one (About…, …Usage, …Help) fails the test.
func TestHelpLivesInTheFace(t *testing.T) {
	for path, p := range list(t, "") {
		if Packages[path] == Face {
			continue
		}
		for _, name := range append(p.GoFiles, p.CgoFiles...) {
			file := filepath.Join(p.Dir, name)
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || (g.Tok != token.CONST && g.Tok != token.VAR) {
					continue
				}
				for _, spec := range g.Specs {
					for _, id := range spec.(*ast.ValueSpec).Names {
						if isHelpName(id.Name) {
							t.Errorf("%s: %s declares %s: help text and flag usage belong in cmd/nlsat", fset.Position(id.Pos()), path, id.Name)
						}
					}
				}
			}
		}
	}
}

// isHelpName reports whether an identifier is named like a help text or
// a flag's usage string.
func isHelpName(name string) bool {
	return strings.HasPrefix(name, "About") || strings.HasSuffix(name, "Usage") || strings.HasSuffix(name, "Help")
}
