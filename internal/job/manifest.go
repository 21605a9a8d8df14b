package job

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// ManifestFile is the manifest's name in a shard directory;
// ManifestSchema its format. Version 2 compressed the stream files;
// version 3 marks the lines of a split's candidates whose instance the
// merge draws again.
const (
	ManifestFile   = "shard.json"
	ManifestSchema = "nlsat-shard/3"
)

// Manifest describes one finished shard.
type Manifest struct {
	Schema string `json:"schema"`
	Kind   string `json:"kind"` // split, generate or phase-sweep
	// Task names the task of a generate or split job (absent: the
	// sat/unsat one); the engine only carries it to the merge.
	Task    string  `json:"task,omitempty"`
	Toolkit Toolkit `json:"toolkit"`
	Command string  `json:"command"`
	License string  `json:"license,omitempty"`
	// Digest identifies the configuration; shards merge only with shards
	// of the same digest, count and oversample.
	Digest     string          `json:"plan_digest"`
	Plan       json.RawMessage `json:"plan"`
	Index      int             `json:"index"`
	Count      int             `json:"count"`
	Oversample float64         `json:"oversample"`
	// Through, in a shard that waits (ErrWaiting), is the number of
	// streams it has drawn, whose files Files lists; 0 in a finished
	// shard, which has drawn every stream.
	Through int          `json:"through,omitempty"`
	Files   []FileReport `json:"files"`
}

// Done reports whether the shard has drawn every stream.
func (m *Manifest) Done() bool { return m.Through == 0 }

// Toolkit names the program that wrote a shard or a dataset.
type Toolkit struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Commit  string `json:"commit"`
}

// FileReport is one file of a shard with its checksum, or one the shard
// has removed once the merge was done with it (Spent, Config.Spent).
type FileReport struct {
	Set    string `json:"set,omitempty"`
	Path   string `json:"path"`
	SHA256 string `json:"sha256,omitempty"`
	Bytes  int64  `json:"bytes"`
	Rows   int    `json:"rows"`
	Spent  bool   `json:"spent,omitempty"`
}

// Sum returns the hex SHA-256 and the size of a file.
func Sum(name string) (string, int64, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, fmt.Errorf("%s: %w", name, err)
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// Report returns the FileReport of a file of dir.
func Report(dir, path string, rows int) (FileReport, error) {
	sum, n, err := Sum(filepath.Join(dir, path))
	return FileReport{Path: path, SHA256: sum, Bytes: n, Rows: rows}, err
}

// Read reads the manifest of a shard directory.
func Read(dir string) (*Manifest, error) {
	data, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s is not a finished shard (no %s); run its shard again to finish it: %w", dir, ManifestFile, err)
	}
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: not a shard manifest: %w", filepath.Join(dir, ManifestFile), err)
	}
	if m.Schema != ManifestSchema {
		return nil, fmt.Errorf("%s: a shard manifest of schema %q, but this nlsat reads %q; run the shard again with this nlsat", filepath.Join(dir, ManifestFile), m.Schema, ManifestSchema)
	}
	return &m, nil
}

// Verify checks every file of a shard against its manifest (a spent
// file is not there to check).
func Verify(dir string, m *Manifest) error {
	for _, f := range m.Files {
		if f.Spent {
			continue
		}
		sum, n, err := Sum(filepath.Join(dir, f.Path))
		if err != nil {
			return fmt.Errorf("shard %d: %w", m.Index, err)
		}
		if sum != f.SHA256 || n != f.Bytes {
			return fmt.Errorf("shard %d: %s has checksum %s and %d bytes, but %s says %s and %d bytes: the file was changed or truncated",
				m.Index, filepath.Join(dir, f.Path), sum, n, ManifestFile, f.SHA256, f.Bytes)
		}
	}
	return nil
}

// Open reads and checks the shards in dirs, which must all be of kind,
// and returns their directories and manifests ordered by shard index.
// Every problem is reported at once, one line each: unfinished or
// tampered shards, shards of another build, shards given twice, and the
// indices no finished shard covers, so that one look tells what to run
// again.
func Open(dirs []string, kind string) ([]string, []*Manifest, error) {
	if len(dirs) == 0 {
		return nil, nil, errors.New("no shard directories given")
	}
	var problems []error
	var first *Manifest
	var firstDir string
	var byIndex []string
	var ms []*Manifest
	for _, dir := range dirs {
		m, err := Read(dir)
		if err == nil && first == nil && m.Count < 1 {
			err = fmt.Errorf("%s: shard count %d", dir, m.Count)
		}
		if err == nil && first == nil {
			first, firstDir = m, dir
			byIndex, ms = make([]string, m.Count), make([]*Manifest, m.Count)
		}
		if err == nil {
			err = fits(dir, m, kind, first, firstDir, byIndex)
		}
		if err == nil {
			err = Verify(dir, m)
		}
		if err != nil {
			problems = append(problems, err)
			continue
		}
		byIndex[m.Index], ms[m.Index] = dir, m
	}
	var missing []string
	for j, d := range byIndex {
		if d == "" {
			missing = append(missing, strconv.Itoa(j))
		}
	}
	if len(missing) > 0 {
		problems = append(problems, fmt.Errorf("shards %v of %d are missing", missing, first.Count))
	}
	if len(problems) > 0 {
		return nil, nil, errors.Join(problems...)
	}
	return byIndex, ms, nil
}

// fits checks that m, read from dir, belongs with the first shard read
// (first, from firstDir) and that its index is not taken yet.
func fits(dir string, m *Manifest, kind string, first *Manifest, firstDir string, byIndex []string) error {
	switch {
	case m.Kind != kind:
		return fmt.Errorf("%s is a shard of %s, not of %s", dir, m.Kind, kind)
	case m.Digest != first.Digest:
		return fmt.Errorf("%s was built with another configuration or seed than %s (plan %.12s…, not %.12s…)", dir, firstDir, m.Digest, first.Digest)
	case m.Count != first.Count || m.Oversample != first.Oversample:
		return fmt.Errorf("%s is shard %d of %d (oversample %g), but %s is one of %d (oversample %g)", dir, m.Index, m.Count, m.Oversample, firstDir, first.Count, first.Oversample)
	case m.Index < 0 || m.Index >= m.Count:
		return fmt.Errorf("%s: shard index %d out of range for %d shards", dir, m.Index, m.Count)
	case byIndex[m.Index] != "":
		return fmt.Errorf("shard %d is given twice: %s and %s", m.Index, byIndex[m.Index], dir)
	}
	return nil
}
