package split

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/nlsat/nlsat/internal/dataset"
)

// Output formats. A build always writes its splits as JSONL first (the
// job store appends lines, and the checks and the audit read them); for
// another format or the minimal fields, the JSONL files stay in the work
// directory and are encoded into OUT/data once checked and audited, so
// resuming and merging work alike for every format, and the records
// are the JSONL build's.

// jsonlDir is the directory whose data/ holds the JSONL split files:
// the output directory, or for another output the work directory.
func (b *builder) jsonlDir() string {
	if b.opt.Output.Plain() {
		return b.opt.Dir
	}
	return filepath.Join(b.opt.Dir, workDir)
}

// dataName is the name, relative to the output directory, under which
// a JSONL split file named name is published.
func (b *builder) dataName(name string) string { return b.opt.Output.Published(name) }

// encodeFiles writes every split file of m in the build's output
// format (unless it is plain JSONL) and records the checksums and sizes
// of the files as written.
func (b *builder) encodeFiles(m *Manifest) error {
	if b.opt.Output.Plain() {
		return nil
	}
	for i := range m.Files {
		fr := &m.Files[i]
		src := filepath.Join(b.jsonlDir(), filepath.FromSlash(fr.Path))
		fr.Path = b.dataName(fr.Path)
		dst := filepath.Join(b.opt.Dir, filepath.FromSlash(fr.Path))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		b.phase("writing "+fr.Path, -1)
		if err := dataset.WriteFile(dst, src, b.opt.Output); err != nil {
			return fmt.Errorf("writing %s: %w", dst, err)
		}
		var err error
		if fr.SHA256, fr.Bytes, err = fileSum(dst); err != nil {
			return err
		}
	}
	return nil
}
