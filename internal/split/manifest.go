package split

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/job"
	"github.com/nlsat/nlsat/internal/solver"
)

// File names of a built dataset, beside the data directory.
const (
	ManifestFile = "manifest.json"
	CardFile     = "README.md"
	SumsFile     = "SHA256SUMS"
)

// ManifestSchema names the manifest's format.
const ManifestSchema = "nlsat-manifest/1"

// Manifest describes a built dataset completely: how it was made and what
// each file holds.
type Manifest struct {
	Schema       string  `json:"schema"`
	RecordSchema string  `json:"record_schema"`
	Toolkit      Toolkit `json:"toolkit"`
	Command      string  `json:"command"`
	License      string  `json:"license"`
	Solver       string  `json:"solver"`
	PlanDigest   string  `json:"plan_digest"`
	// Format and Fields are the output's --format and --fields, where not
	// the defaults (jsonl, full).
	Format string       `json:"format,omitempty"`
	Fields string       `json:"fields,omitempty"`
	Plan   *Plan        `json:"plan"`
	Sets   []SetReport  `json:"sets"`
	Files  []FileReport `json:"files"`
	// Audit is the shortcut report of the data (null if none was run),
	// AuditSummary its summary for the card.
	Audit        json.RawMessage `json:"audit"`
	AuditSummary string          `json:"audit_summary"`
}

// SetReport counts the candidates of one pool: how many were drawn, and
// why those not accepted were rejected.
type SetReport struct {
	Name   string   `json:"name"`
	Splits []string `json:"splits"`
	// Pilot, under the surface balance, measures the shortcut that the
	// thinning removed: how well the surface and the sentence pairs told
	// sat from unsat candidates without a contradictory pair.
	Pilot *PilotShortcut `json:"pilot,omitempty"`
	// PilotCore measures how well the surface told unsat candidates with
	// a contradictory pair from the rest (as far as Pilot's thinning kept
	// them), which the thinning also removed.
	PilotCore *PilotShortcut `json:"pilot_core,omitempty"`
	Counts
	Strata []StratumReport `json:"strata"`
}

// Counts are the fates of candidates.
type Counts struct {
	Candidates int `json:"candidates"`
	Accepted   int `json:"accepted"`
	// Undecided counts instances the solver left undecided, by reason;
	// they are never labelled or written.
	Undecided map[string]int `json:"undecided"`
	LabelFull int            `json:"label_full"`
	// Thinned counts candidates the surface balance did not keep.
	Thinned int `json:"thinned"`
	// HeldOut counts candidates that only a split whose quota for their
	// label was full would admit, or none (the hold-out rules).
	HeldOut            int `json:"held_out"`
	DuplicatesExact    int `json:"duplicates_exact"`
	DuplicatesRenaming int `json:"duplicates_renaming"`
	// CanonFallbacks counts accepted instances whose canonical form hit
	// the search cap; only an exact copy of them would have been caught.
	CanonFallbacks int `json:"canon_fallbacks"`
}

// StratumReport counts the candidates of one stratum.
type StratumReport struct {
	Key string `json:"key"`
	Counts
}

// FileReport describes one data file.
type FileReport struct {
	Path   string         `json:"path"`
	Split  string         `json:"split"`
	SHA256 string         `json:"sha256"`
	Bytes  int64          `json:"bytes"`
	Rows   int            `json:"rows"`
	Labels LabelCounts    `json:"labels"`
	Strata []StratumCount `json:"strata"`
}

// LabelCounts counts the instances of each label.
type LabelCounts struct {
	Sat   int `json:"sat"`
	Unsat int `json:"unsat"`
}

// StratumCount counts the instances of each label in one stratum of a file.
type StratumCount struct {
	Key string `json:"key"`
	LabelCounts
}

func (c *Counts) add(ss *stratumState) {
	c.Candidates += ss.Drawn
	for _, f := range ss.Fill {
		c.Accepted += f[0] + f[1]
	}
	if c.Undecided == nil {
		c.Undecided = map[string]int{}
	}
	for r, n := range ss.Unknown {
		c.Undecided[r] += n
	}
	c.LabelFull += ss.LabelFull
	c.Thinned += ss.Thinned
	c.HeldOut += ss.HeldOut
	c.DuplicatesExact += ss.DupExact
	c.DuplicatesRenaming += ss.DupRenaming
	c.CanonFallbacks += ss.CanonFallbacks
}

// finish moves the partial files into place, checks them against the plan
// and writes the manifest, the card and the checksums.
func (b *builder) finish(ctx context.Context) (*Manifest, error) {
	b.dropCollected()
	states, err := b.place()
	if err != nil {
		return nil, err
	}
	m := &Manifest{Schema: ManifestSchema, RecordSchema: b.plan.recordSchema(), Toolkit: b.opt.Toolkit,
		Command: b.opt.Command + b.opt.Output.Args(), License: b.opt.License, Format: b.opt.Output.FormatName(), Fields: b.opt.Output.FieldsName(),
		Solver: b.plan.Solver, PlanDigest: b.plan.Digest(), Plan: b.plan}
	for k, pl := range b.plan.Pools {
		sr := SetReport{Name: pl.Name}
		if ms := b.st.Pools[k].Models; ms != nil {
			if ms.Free != nil {
				s := ms.Free.Shortcut
				sr.Pilot = &s
			}
			if ms.Core != nil {
				s := ms.Core.Shortcut
				sr.PilotCore = &s
			}
		}
		// Nothing reads the models from here on (a resume reads them from
		// the work directory), and the audit below is the build's other
		// large holder of memory: their pattern keys and weights (some 45
		// MB in make run's build) go, copies of the figures above stay.
		b.st.Pools[k].Models = nil
		sr.Undecided = map[string]int{}
		for s, st := range pl.Strata {
			ss := &b.st.Pools[k].Strata[s]
			r := StratumReport{Key: st.Key}
			r.add(ss)
			sr.add(ss)
			sr.Strata = append(sr.Strata, r)
		}
		for _, sp := range pl.Splits {
			sr.Splits = append(sr.Splits, sp.Name)
		}
		m.Sets = append(m.Sets, sr)
	}
	for f, df := range b.files {
		b.phase("reading back "+df.split.File, -1)
		fr, err := b.report(df, states[f])
		if err != nil {
			return nil, err
		}
		m.Files = append(m.Files, fr)
	}
	m.Audit = json.RawMessage("null")
	if b.plan.Audit {
		if b.opt.Audit == nil {
			return nil, errNoAudit
		}
		b.phase("auditing the files for shortcuts", -1)
		if testHookBeforeAudit != nil {
			testHookBeforeAudit(b)
		}
		report, summary, err := b.opt.Audit(ctx, b.jsonlDir(), b.dataName)
		if err != nil {
			return nil, fmt.Errorf("shortcut audit: %w", err)
		}
		m.Audit, m.AuditSummary = report, summary
	}
	if err := b.encodeFiles(m); err != nil {
		return nil, err
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	data = append(data, '\n')
	if err := writeFileAtomic(filepath.Join(b.opt.Dir, ManifestFile), data); err != nil {
		return nil, err
	}
	if err := writeFileAtomic(filepath.Join(b.opt.Dir, CardFile), []byte(Card(m))); err != nil {
		return nil, err
	}
	var sums strings.Builder
	for _, fr := range m.Files {
		fmt.Fprintf(&sums, "%s  %s\n", fr.SHA256, fr.Path)
	}
	for _, name := range []string{ManifestFile, CardFile} {
		sum, _, err := fileSum(filepath.Join(b.opt.Dir, name))
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&sums, "%s  %s\n", sum, name)
	}
	if err := writeFileAtomic(filepath.Join(b.opt.Dir, SumsFile), []byte(sums.String())); err != nil {
		return nil, err
	}
	return m, b.removeWork()
}

// removeWork deletes the work directory of a finished build. The
// checkpoint goes last: until it is gone, running the build again
// finishes it again.
func (b *builder) removeWork() error {
	work := filepath.Join(b.opt.Dir, workDir)
	entries, err := os.ReadDir(work)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name() != stateFile {
			if err := os.RemoveAll(filepath.Join(work, e.Name())); err != nil {
				return err
			}
		}
	}
	if err := b.store.Remove(); err != nil {
		return err
	}
	return os.Remove(work)
}

// testHookBeforeAudit, when a test sets it, sees the builder as the
// audit starts.
var testHookBeforeAudit func(*builder)

// dropCollected lets go of what chose the records, once every file is
// written, so that the audit after them does not hold it too: the
// acceptors' entries and counts and the dedup sets, which grow with the
// candidates collected (about 125 MB at a million S records), and the
// solver's memo of decided shapes (about 50 MB at its cap). The balance
// models' indices of their patterns went as each set ended (config's
// End), and finish lets go of the models once it has copied their
// figures for the manifest.
func (b *builder) dropCollected() {
	b.exact, b.renamed = nil, nil
	for _, a := range b.acceptors {
		a.entries, a.counts = nil, nil
	}
	solver.ForgetShapes()
}

// place moves the split files to their final names (unless an earlier,
// interrupted finish did) and returns the lengths the build wrote.
func (b *builder) place() ([]job.PartState, error) {
	var final []string
	for _, df := range b.files {
		dst := filepath.Join(b.jsonlDir(), filepath.FromSlash(df.split.File))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return nil, err
		}
		final = append(final, dst)
	}
	// The keys and the spill files stay in the work directory.
	for len(final) < b.spillPart(len(b.plan.Pools)) {
		final = append(final, "")
	}
	return b.store.Place(final)
}

// report reads split file df back, checks that it holds what the build
// wrote (fs), every record, and the balance of every stratum against the
// plan, and summarises it.
func (b *builder) report(df dataFile, fs job.PartState) (FileReport, error) {
	name := filepath.Join(b.jsonlDir(), filepath.FromSlash(df.split.File))
	fr, err := b.readBack(name, df)
	if err == nil && (fr.Bytes != fs.Bytes || fr.Rows != fs.Rows) {
		err = fmt.Errorf("%s: %d bytes and %d rows, but the build wrote %d and %d", name, fr.Bytes, fr.Rows, fs.Bytes, fs.Rows)
	}
	return fr, err
}

// readBack reads split file df back from name, checks every record and
// the balance of every stratum of each of its splits against the plan,
// and summarises it.
func (b *builder) readBack(name string, df dataFile) (FileReport, error) {
	fr := FileReport{Path: df.split.File, Split: df.split.Name}
	f, err := os.Open(name)
	if err != nil {
		return fr, err
	}
	defer f.Close()
	h := sha256.New()
	counts := make([][]LabelCounts, len(df.members))
	for j, mb := range df.members {
		counts[j] = make([]LabelCounts, len(b.plan.Pools[mb[0]].Strata))
	}
	dec := dataset.NewDecoder(io.TeeReader(f, h), name)
	for {
		r, err := dec.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fr, err
		}
		if err := r.Validate(); err != nil {
			return fr, fmt.Errorf("%s:%d: %w", name, dec.Line(), err)
		}
		j, s, err := b.stratumOf(r, df)
		if err != nil {
			return fr, fmt.Errorf("%s:%d: %w", name, dec.Line(), err)
		}
		switch r.Label {
		case dataset.LabelSat:
			counts[j][s].Sat++
			fr.Labels.Sat++
		case dataset.LabelUnsat:
			counts[j][s].Unsat++
			fr.Labels.Unsat++
		default:
			return fr, fmt.Errorf("%s:%d: record %s has no label", name, dec.Line(), r.ID)
		}
		fr.Rows++
	}
	for j, mb := range df.members {
		pl, sp := &b.plan.Pools[mb[0]], b.plan.Pools[mb[0]].Splits[mb[1]]
		for s, c := range counts[j] {
			key := pl.Strata[s].Key
			if b.plan.Joint() {
				key = pl.Fragment + " " + key
			}
			if c.Sat != sp.Pairs[s] || c.Unsat != sp.Pairs[s] {
				return fr, fmt.Errorf("%s: stratum %s holds %d sat and %d unsat instances, not %d of each", name, key, c.Sat, c.Unsat, sp.Pairs[s])
			}
			fr.Strata = append(fr.Strata, StratumCount{Key: key, LabelCounts: c})
		}
	}
	fr.SHA256 = hex.EncodeToString(h.Sum(nil))
	info, err := f.Stat()
	if err != nil {
		return fr, err
	}
	fr.Bytes = info.Size()
	return fr, nil
}

// stratumOf finds a record's split among df's (j) and its stratum (s)
// from the index its seed names, and checks that the record's fragment
// is its set's and its sizes are among the stratum's points.
func (b *builder) stratumOf(r *dataset.Record, df dataFile) (j, s int, err error) {
	seed, idx, ok := strings.Cut(r.Seed, ":")
	g, err := strconv.Atoi(idx)
	j = slices.IndexFunc(df.members, func(mb [2]int) bool { return mb[0] == g/PoolStride })
	if !ok || err != nil || seed != strconv.FormatUint(b.plan.Seed, 10) || j < 0 || g < 0 {
		return 0, 0, fmt.Errorf("record %s: seed %q is not an index of set %s under seed %d", r.ID, r.Seed, b.plan.Pools[df.members[0][0]].Name, b.plan.Seed)
	}
	k := df.members[j][0]
	pl := &b.plan.Pools[k]
	if r.Fragment != b.plan.poolFragName(k) {
		return 0, 0, fmt.Errorf("record %s: fragment %s, but set %s draws from %s", r.ID, r.Fragment, pl.Name, b.plan.poolFragName(k))
	}
	s = g % PoolStride % len(pl.Strata)
	for _, pt := range pl.Strata[s].Points {
		if pt.M == r.M && pt.N1 == r.N1 && pt.N2 == r.N2 {
			return j, s, nil
		}
	}
	return 0, 0, fmt.Errorf("record %s: (m, n1, n2) = (%d, %d, %d) is not a point of stratum %s", r.ID, r.M, r.N1, r.N2, pl.Strata[s].Key)
}

// WriteSummary writes what each file holds and, with sets, what became of
// each set's candidates.
func (m *Manifest) WriteSummary(w io.Writer, sets bool) {
	for _, f := range m.Files {
		fmt.Fprintf(w, "  %-28s %7d instances (%d sat, %d unsat)\n", f.Path, f.Rows, f.Labels.Sat, f.Labels.Unsat)
	}
	if !sets {
		return
	}
	for _, st := range m.Sets {
		und := 0
		for _, n := range st.Undecided {
			und += n
		}
		fmt.Fprintf(w, "  set %s: %d candidates, %d accepted; rejected: %d undecided, %d thinned by the surface balance, %d held out, %d with their label's quota full, %d duplicates as written, %d up to renaming\n",
			st.Name, st.Candidates, st.Accepted, und, st.Thinned, st.HeldOut, st.LabelFull, st.DuplicatesExact, st.DuplicatesRenaming)
	}
}

// ReadManifest reads a manifest file.
func ReadManifest(name string) (*Manifest, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: not a manifest: %w", name, err)
	}
	if m.Schema != ManifestSchema {
		return nil, fmt.Errorf("%s: manifest schema %q, expected %q", name, m.Schema, ManifestSchema)
	}
	return &m, nil
}

// Verify checks a built dataset: every file of SHA256SUMS has its
// checksum, and every data file of the manifest its checksum and size.
func Verify(dir string) error {
	m, err := ReadManifest(filepath.Join(dir, ManifestFile))
	if err != nil {
		return err
	}
	sums, err := os.ReadFile(filepath.Join(dir, SumsFile))
	if err != nil {
		return err
	}
	listed := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(sums))
	for line := 1; sc.Scan(); line++ {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok || len(sum) != 64 {
			return fmt.Errorf("%s:%d: expected \"<sha256>  <file>\"", filepath.Join(dir, SumsFile), line)
		}
		listed[name] = sum
		got, _, err := fileSum(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			return err
		}
		if got != sum {
			return fmt.Errorf("%s: checksum %s does not match SHA256SUMS (%s)", filepath.Join(dir, name), got, sum)
		}
	}
	for _, fr := range m.Files {
		got, n, err := fileSum(filepath.Join(dir, filepath.FromSlash(fr.Path)))
		if err != nil {
			return err
		}
		if got != fr.SHA256 || n != fr.Bytes {
			return fmt.Errorf("%s: checksum %s and %d bytes do not match the manifest (%s, %d bytes)", filepath.Join(dir, fr.Path), got, n, fr.SHA256, fr.Bytes)
		}
		if listed[fr.Path] != fr.SHA256 {
			return fmt.Errorf("%s is missing from %s or listed with another checksum", fr.Path, SumsFile)
		}
	}
	return nil
}

// fileSum returns the hex SHA-256 and size of a file.
var fileSum = job.Sum
