package job

import (
	"os"
	"path/filepath"

	"github.com/nlsat/nlsat/internal/atomicfile"
	"github.com/nlsat/nlsat/internal/inputerr"
)

// OpenFile opens the Store of a run that writes one records file, out:
// its JSONL lines accumulate in the part .OUT.partial beside it, with
// the checkpoint .OUT.checkpoint.json, so that a later run of the same
// digest resumes it. Temporary files that an interrupted run left are
// removed first. out must not be a directory.
func OpenFile(out, digest string) (*Store, error) {
	if fi, err := os.Stat(out); err == nil && fi.IsDir() {
		return nil, inputerr.Errorf("cannot write %s: it is a directory (--out names a file; with shards, a directory)", out)
	}
	dir, base := filepath.Dir(out), filepath.Base(out)
	for _, prefix := range []string{base + ".", "." + base + "."} {
		if err := atomicfile.RemoveStaleTemps(dir, prefix); err != nil {
			return nil, err
		}
	}
	return OpenStore(filepath.Join(dir, "."+base+".checkpoint.json"), digest,
		[]string{filepath.Join(dir, "."+base+".partial")})
}

// An Encoding says how the JSONL part of a run opened by OpenFile becomes
// its output file: as it is (Plain), or encoded into out by Encode.
type Encoding interface {
	Plain() bool
	Encode(out, part string) error
}

// CommitFile ends a run opened by OpenFile: the JSONL part becomes out,
// or, for another output format, is encoded into out and then removed.
// The JSONL stays, with its checkpoint, until the encoded file is in
// place: a run interrupted in between encodes it again.
func (s *Store) CommitFile(out string, o Encoding) error {
	if o.Plain() {
		return s.Commit([]string{out})
	}
	if _, err := s.Place([]string{""}); err != nil {
		return err
	}
	part := s.Part(0).Name
	if err := o.Encode(out, part); err != nil {
		return err
	}
	if err := s.Remove(); err != nil {
		return err
	}
	return os.Remove(part)
}
