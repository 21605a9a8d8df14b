package job

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/nlsat/nlsat/internal/atomicfile"
)

// A done stamp records a finished run: its digest and the checksum of
// every file it wrote, so that the same run asked for again finds its
// output there and intact and has nothing to do (as a split finds its
// manifest). It lives beside the output, hidden: .OUT.done.json for a
// file, DIR/.nlsat-done.json for a directory.
type doneStamp struct {
	Digest string            `json:"digest"`
	Files  map[string]string `json:"files"` // slash path relative to the stamp's directory: SHA-256
}

// DoneFile is the done stamp of the output file out.
func DoneFile(out string) string {
	return filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".done.json")
}

// DoneDir is the done stamp of the output directory dir.
func DoneDir(dir string) string { return filepath.Join(dir, ".nlsat-done.json") }

// WriteDone writes the stamp name for a run of digest that wrote files
// (paths relative to the stamp's directory).
func WriteDone(name, digest string, files []string) error {
	st := doneStamp{Digest: digest, Files: map[string]string{}}
	dir := filepath.Dir(name)
	for _, f := range files {
		sum, err := fileSHA256(filepath.Join(dir, f))
		if err != nil {
			return err
		}
		st.Files[filepath.ToSlash(f)] = sum
	}
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(name, append(data, '\n'))
}

// IsDone reports whether the stamp name records a run of digest whose
// files are all there with their checksums.
func IsDone(name, digest string) bool {
	data, err := os.ReadFile(name)
	if err != nil {
		return false
	}
	var st doneStamp
	if json.Unmarshal(data, &st) != nil || st.Digest != digest || len(st.Files) == 0 {
		return false
	}
	dir := filepath.Dir(name)
	for f, want := range st.Files {
		if sum, err := fileSHA256(filepath.Join(dir, filepath.FromSlash(f))); err != nil || sum != want {
			return false
		}
	}
	return true
}

// DirFiles lists the files under dir that a done stamp covers: every
// file but hidden ones (checkpoints, stamps, temporary files), sorted.
func DirFiles(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != dir && d.Name()[0] == '.' {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	slices.Sort(out)
	return out, err
}

func fileSHA256(name string) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
