package units

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/nlsat/nlsat/internal/atomicfile"
	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/job"
	"github.com/nlsat/nlsat/internal/split"
)

// Manifest describes a built dataset completely. Its layout is
// split.Manifest's (schema split.ManifestSchema; split.Verify checks it),
// with the plan, counts by label and the units' candidates.
type Manifest struct {
	Schema       string      `json:"schema"`
	RecordSchema string      `json:"record_schema"`
	Task         string      `json:"task"`
	Toolkit      job.Toolkit `json:"toolkit"`
	Command      string      `json:"command"`
	License      string      `json:"license"`
	Solver       string      `json:"solver"`
	PlanDigest   string      `json:"plan_digest"`
	// Format is the output's --format where not jsonl.
	Format string `json:"format,omitempty"`
	Plan   *Plan  `json:"plan"`
	// Strata counts the candidates of every stratum.
	Strata []StratumCounts `json:"strata"`
	Files  []FileReport    `json:"files"`
	// Audit is the shortcut report of the data (null if none was run),
	// AuditSummary its summary for the card.
	Audit        json.RawMessage `json:"audit"`
	AuditSummary string          `json:"audit_summary"`
}

// FileReport describes one data file: its records by label, overall and
// per stratum.
type FileReport struct {
	Path   string          `json:"path"`
	Split  string          `json:"split"`
	SHA256 string          `json:"sha256"`
	Bytes  int64           `json:"bytes"`
	Rows   int             `json:"rows"`
	Labels map[string]int  `json:"labels"`
	Strata []StratumLabels `json:"strata"`
}

// StratumLabels counts the records of each label in one stratum.
type StratumLabels struct {
	// Fragment is the stratum's fragment in a joint build.
	Fragment string         `json:"fragment,omitempty"`
	Key      string         `json:"key"`
	Labels   map[string]int `json:"labels"`
}

// ReadManifest reads the manifest of a build of task t.
func ReadManifest(t Task, name string) (*Manifest, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if m.Schema != split.ManifestSchema || m.RecordSchema != t.RecordSchema() {
		return nil, fmt.Errorf("%s: manifest schema %q of records %q, expected %q of %q", name, m.Schema, m.RecordSchema, split.ManifestSchema, t.RecordSchema())
	}
	return &m, nil
}

// finish writes the splits, audits them, encodes them in the output
// format, and writes the manifest, the card and the checksums; then it
// removes the work directory.
func (c *collector) finish(ctx context.Context, o Options) (*Manifest, error) {
	p := c.plan
	jsonlDir := o.Dir
	if !o.Output.Plain() {
		jsonlDir = filepath.Join(o.Dir, workDir)
	}
	if err := os.MkdirAll(filepath.Join(jsonlDir, "data"), 0o755); err != nil {
		return nil, err
	}
	files, err := c.writeSplits(jsonlDir)
	if err != nil {
		return nil, err
	}
	if err := checkBalance(c.task, p, files); err != nil {
		return nil, err
	}
	m := &Manifest{Schema: split.ManifestSchema, RecordSchema: c.task.RecordSchema(), Task: c.task.Name(), Toolkit: o.Toolkit,
		Command: o.Command + o.Output.Args(), License: o.License, Solver: p.Solver, PlanDigest: p.Digest(), Format: o.Output.FormatName(),
		Plan: p, Strata: c.counts, Audit: json.RawMessage("null")}
	rename := o.Output.Published
	if p.Audit {
		if o.Audit == nil {
			return nil, errors.New("the plan asks for a shortcut audit, but no audit was given")
		}
		if m.Audit, m.AuditSummary, err = o.Audit(ctx, jsonlDir, rename); err != nil {
			return nil, fmt.Errorf("shortcut audit: %w", err)
		}
	}
	if err := os.MkdirAll(filepath.Join(o.Dir, "data"), 0o755); err != nil {
		return nil, err
	}
	for i, fr := range files {
		src := filepath.Join(jsonlDir, filepath.FromSlash(fr.Path))
		fr.Path = rename(fr.Path)
		dst := filepath.Join(o.Dir, filepath.FromSlash(fr.Path))
		if !o.Output.Plain() {
			if err := dataset.WriteFile(dst, src, o.Output); err != nil {
				return nil, err
			}
		}
		if fr.SHA256, fr.Bytes, err = job.Sum(dst); err != nil {
			return nil, err
		}
		files[i] = fr
	}
	m.Files = files
	if err := writeMeta(c.task, o.Dir, m); err != nil {
		return nil, err
	}
	// The checkpoint goes last: until it is gone, running the build
	// again finishes it again.
	c.store.Close()
	return m, os.RemoveAll(filepath.Join(o.Dir, workDir))
}

// writeMeta writes the manifest, the card and the checksums of m's
// files and of both.
func writeMeta(t Task, dir string, m *Manifest) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, split.ManifestFile), append(data, '\n')); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, split.CardFile), []byte(t.Card(m))); err != nil {
		return err
	}
	var sums strings.Builder
	for _, fr := range m.Files {
		fmt.Fprintf(&sums, "%s  %s\n", fr.SHA256, fr.Path)
	}
	for _, name := range []string{split.ManifestFile, split.CardFile} {
		sum, _, err := job.Sum(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		fmt.Fprintf(&sums, "%s  %s\n", sum, name)
	}
	return atomicfile.WriteFile(filepath.Join(dir, split.SumsFile), []byte(sums.String()))
}

// Summary is one line on the build: records per split and the audit's
// verdict per split.
func (m *Manifest) Summary() string {
	var parts []string
	for _, f := range m.Files {
		parts = append(parts, fmt.Sprintf("%s %d", f.Split, f.Rows))
	}
	k := 0
	if len(m.Files) > 0 {
		k = len(m.Files[0].Labels)
	}
	s := strings.Join(parts, ", ") + " records, " + share(k) + " of each label in every stratum"
	var rep struct {
		ThreeWay []struct {
			Split   string `json:"split"`
			Verdict struct {
				Shortcut bool `json:"shortcut"`
			} `json:"verdict"`
		} `json:"three_way"`
	}
	if json.Unmarshal(m.Audit, &rep) != nil || len(rep.ThreeWay) == 0 {
		return s
	}
	var vs []string
	for _, t := range rep.ThreeWay {
		v := "no shortcut"
		if t.Verdict.Shortcut {
			v = "SHORTCUT (see the card)"
		}
		vs = append(vs, t.Split+" "+v)
	}
	return s + "; audit: " + strings.Join(vs, ", ")
}
