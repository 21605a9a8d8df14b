package main

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// repoRoot is the repository, seen from this package's directory.
const repoRoot = "../.."

// TestReadmeFrontDoor checks what README.md promises to be: a front door
// of at most 200 lines whose set-up is exactly make run and make test,
// with a command table that lists every command of nlsat and no other.
func TestReadmeFrontDoor(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if n := strings.Count(text, "\n"); n > 200 {
		t.Errorf("README.md has %d lines; the front door keeps at most 200 (the rest belongs in docs/)", n)
	}
	setup := section(text, "## Set-up")
	var makes []string
	for _, m := range regexp.MustCompile(`(?m)^make (\w+)`).FindAllStringSubmatch(setup, -1) {
		makes = append(makes, m[1])
	}
	if !slices.Equal(makes, []string{"run", "test"}) {
		t.Errorf("the set-up commands are make %v, want make run and make test", makes)
	}
	// A time quoted without its machine and load misleads: the set-up
	// says where both were measured and what they took there.
	flat := strings.Join(strings.Fields(setup), " ")
	for _, want := range []string{
		"2-core virtual machine",
		"other heavy jobs",
		"(docs/measurements.md#set-up)",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("the set-up section does not say %q", want)
		}
	}
	for _, want := range []string{"`make run` took about [0-9]+ minutes", "`make test` about [0-9]+"} {
		if !regexp.MustCompile(want).MatchString(flat) {
			t.Errorf("the set-up section does not say how long it took (%s)", want)
		}
	}
	var listed []string
	for _, m := range regexp.MustCompile("(?m)^\\| `nlsat ([a-z-]+)` \\|").FindAllStringSubmatch(section(text, "## Commands"), -1) {
		listed = append(listed, m[1])
	}
	var names []string
	for _, c := range newRootCmd(streams{}).Commands() {
		names = append(names, c.Name())
	}
	slices.Sort(listed)
	slices.Sort(names)
	if !slices.Equal(listed, names) {
		t.Errorf("the README's command table lists %v; nlsat has %v", listed, names)
	}
}

// TestReadmeSessions runs every "$ nlsat ..." session shown in README.md
// and docs/ (a command, continued over lines ending in a backslash, and
// the output below it up to the end of the block) and compares the
// output, so that the manual shows what nlsat prints.
func TestReadmeSessions(t *testing.T) {
	quoted := regexp.MustCompile(`"([^"]*)"|(\S+)`)
	n := 0
	for _, f := range []string{"README.md", "docs/proofs.md"} {
		data, err := os.ReadFile(filepath.Join(repoRoot, f))
		if err != nil {
			t.Fatal(err)
		}
		for _, block := range strings.Split(string(data), "```\n")[1:] {
			cmdline, rest, ok := strings.Cut(block, "\n")
			if !strings.HasPrefix(cmdline, "$ nlsat ") || !ok {
				continue
			}
			for strings.HasSuffix(cmdline, "\\") {
				var next string
				next, rest, _ = strings.Cut(rest, "\n")
				cmdline = strings.TrimSuffix(cmdline, "\\") + " " + next
			}
			n++
			var args []string
			for _, a := range quoted.FindAllStringSubmatch(cmdline, -1)[2:] {
				args = append(args, a[1]+a[2])
			}
			code, out, errs := nlsat(context.Background(), "", args...)
			if code != exitOK || out != rest {
				t.Errorf("%s: nlsat %q exits %d (%s) and prints\n%s\nbut the manual shows\n%s", f, args, code, errs, out, rest)
			}
		}
	}
	if n < 2 {
		t.Errorf("found %d sessions; README.md and docs/proofs.md each show one", n)
	}
}

// section returns the part of a markdown text from the heading line to
// the next heading of the same level, or "" when there is no such heading.
func section(text, heading string) string {
	i := strings.Index(text, "\n"+heading+"\n")
	if i < 0 {
		return ""
	}
	rest := text[i+len(heading)+2:]
	if j := strings.Index(rest, "\n"+heading[:strings.IndexByte(heading, ' ')+1]); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// TestDocLinks checks that every relative link of README.md and docs/
// reaches a file of the repository, and every #anchor into a markdown
// file a heading of it; and that the paths of docs/ that code comments
// cite exist.
func TestDocLinks(t *testing.T) {
	files := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(repoRoot, "docs"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			rel, _ := filepath.Rel(repoRoot, path)
			files = append(files, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(repoRoot, f))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(inlineCode.ReplaceAllString(withoutFences(string(data)), ""), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			if path == "" {
				path = f
			} else {
				path = filepath.ToSlash(filepath.Join(filepath.Dir(f), path))
			}
			data, err := os.ReadFile(filepath.Join(repoRoot, path))
			if err != nil {
				if _, serr := os.Stat(filepath.Join(repoRoot, path)); serr != nil {
					t.Errorf("%s: link %s: no such file %s", f, target, path)
				}
				continue
			}
			if anchor != "" && strings.HasSuffix(path, ".md") && !slices.Contains(anchors(string(data)), anchor) {
				t.Errorf("%s: link %s: %s has no heading #%s", f, target, path, anchor)
			}
		}
	}
	readme, _ := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	for _, f := range files {
		if dir := filepath.Dir(f); (dir == "docs" || dir == "docs/design") && !strings.Contains(string(readme), "]("+f+")") {
			t.Errorf("README.md does not link to %s: every page of the manual is listed in its front door", f)
		}
	}
	cited := regexp.MustCompile(`docs/[A-Za-z0-9_./-]+\.md`)
	outside := regexp.MustCompile(`\bshared/(spec|design|seeds)/`)
	err = filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules"):
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, ".go"):
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, doc := range cited.FindAllString(string(data), -1) {
			if _, err := os.Stat(filepath.Join(repoRoot, doc)); err != nil {
				t.Errorf("%s cites %s, which does not exist", path, doc)
			}
		}
		if m := outside.FindString(string(data)); m != "" {
			t.Errorf("%s cites %s, outside the repository", path, m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// inlineCode is inline code in markdown, where brackets are not links.
var inlineCode = regexp.MustCompile("`[^`\n]*`")

// withoutFences returns text without its fenced code blocks, where a
// line starting with # is not a heading and brackets are not links.
func withoutFences(text string) string {
	var b strings.Builder
	fenced := false
	for line := range strings.Lines(text) {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			b.WriteString(line)
		}
	}
	return b.String()
}

// anchors returns the anchors GitHub gives the headings of a markdown
// text: lower case, spaces as hyphens, punctuation dropped.
func anchors(text string) []string {
	var out []string
	for line := range strings.Lines(withoutFences(text)) {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		out = append(out, b.String())
	}
	return out
}
