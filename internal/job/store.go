package job

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"github.com/nlsat/nlsat/internal/atomicfile"
	"github.com/nlsat/nlsat/internal/inputerr"
)

// CheckpointSchema names the format of every checkpoint nlsat writes. A
// checkpoint of another schema is refused, not misread: version 2 moved a
// split's surface-balance models out of its checkpoint into a file of
// their own, and a build resumed from a version 1 checkpoint would have
// gone on without them.
const CheckpointSchema = "nlsat-checkpoint/2"

// Position is where a run stands: the stream and the index of the next
// item it will hand on.
type Position struct {
	Stream int `json:"stream"`
	Next   int `json:"next"`
}

// checkpoint is the file a Store saves.
type checkpoint struct {
	Schema string          `json:"schema"`
	Digest string          `json:"digest"`
	Pos    Position        `json:"position"`
	Parts  []PartState     `json:"parts"`
	State  json.RawMessage `json:"state"`
}

// PartState is how much of a part file is valid. Rows counts the
// rows of Bytes and, in a compressed part, those of Pending: the text
// written since its last whole member, which the file does not hold yet.
type PartState struct {
	Bytes   int64  `json:"bytes"`
	Rows    int    `json:"rows"`
	Pending []byte `json:"pending,omitempty"`
	// Spent: the part was emptied once no one needed its rows (drop);
	// Rows still counts those it held.
	Spent bool `json:"spent,omitempty"`
}

// Store is the durable state of a run in progress: append-only part files
// and a checkpoint, one JSON file that records the run's configuration
// digest, its Position, the valid length of every part and the job's own
// state. Whatever a part holds beyond its checkpointed length was written
// after the last Save, and a resumed run cuts it off, so a run that is
// killed and resumed ends in the bytes of one that was not.
//
// A part that is gone while its checkpoint gives it a length was moved
// into place by an interrupted Commit (see Commit).
type Store struct {
	ckpt    string
	digest  string
	parts   []*Part
	pos     Position
	state   json.RawMessage
	resumed bool
}

// Part is one append-only file of a Store.
//
// A part whose name ends in ".gz" is compressed: gzip members of
// MemberSize bytes of text each (the last one shorter), which a gzip
// reader reads as one stream. A member is compressed only once it is
// whole, and the checkpoint keeps the text of the member in progress, so
// the file's bytes depend only on the text written to it, not on when
// the run saved or was interrupted.
type Part struct {
	Name    string
	saved   PartState
	f       *os.File
	w       *bufio.Writer
	rows    int
	size    int64 // bytes: saved, plus written since (uncompressed parts)
	gone    bool  // moved by an earlier, interrupted Commit
	gz      *gzip.Writer
	pending []byte // a compressed part's member in progress
	spent   bool   // emptied by drop
}

// MemberSize is the text of one gzip member of a compressed part.
const MemberSize = 256 << 10

// compressed reports whether the part is written as gzip members.
func (p *Part) compressed() bool { return strings.HasSuffix(p.Name, ".gz") }

// OpenStore opens the store whose checkpoint is the file ckpt and whose
// parts are the files parts, for a run whose configuration has the given
// digest. If an unfinished run of the same digest saved a checkpoint
// there, the store resumes it; a checkpoint of another digest is an error
// that says what to do.
func OpenStore(ckpt, digest string, parts []string) (*Store, error) {
	s := &Store{ckpt: ckpt, digest: digest}
	for _, name := range parts {
		s.parts = append(s.parts, &Part{Name: name})
	}
	data, err := os.ReadFile(ckpt)
	if errors.Is(err, fs.ErrNotExist) {
		return s, s.open()
	}
	if err != nil {
		return nil, err
	}
	var c checkpoint
	if err := json.Unmarshal(data, &c); err != nil || c.Schema != CheckpointSchema || len(c.Parts) != len(parts) {
		return nil, inputerr.Errorf("%s is not a checkpoint of this version of nlsat (or is corrupt); remove it%s to start afresh", ckpt, partsToo(parts))
	}
	if c.Digest != digest {
		return nil, inputerr.Errorf("%s belongs to an unfinished run of another configuration; run the same command as before to resume it, or remove it%s to start afresh", ckpt, partsToo(parts))
	}
	for i, p := range s.parts {
		p.saved, p.rows = c.Parts[i], c.Parts[i].Rows
	}
	s.pos, s.state, s.resumed = c.Pos, c.State, true
	return s, s.open()
}

// open opens every part, cut to its saved length; a part that is gone
// while its checkpoint gives it a length is left for Commit.
func (s *Store) open() error {
	for _, p := range s.parts {
		if p.saved.Bytes > 0 && !exists(p.Name) {
			p.gone = true
			continue
		}
		if err := p.open(); err != nil {
			s.Close()
			return err
		}
	}
	return nil
}

// partsToo names the part files in a message about removing a checkpoint.
func partsToo(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return " and " + parts[0]
	}
	return " and the files beside it"
}

// Resumed reports whether the store continues an unfinished run.
func (s *Store) Resumed() bool { return s.resumed }

// Position returns where the saved run stood (the zero Position when
// fresh).
func (s *Store) Position() Position { return s.pos }

// State decodes the job state of the saved run into v; it leaves v as it
// is when the store is fresh.
func (s *Store) State(v any) error {
	if !s.resumed || len(s.state) == 0 {
		return nil
	}
	if err := json.Unmarshal(s.state, v); err != nil {
		return fmt.Errorf("%s: corrupt checkpoint (%v); remove it to start afresh", s.ckpt, err)
	}
	return nil
}

// Part returns part k.
func (s *Store) Part(k int) *Part { return s.parts[k] }

// Rows returns the number of rows of the part: those saved plus those
// written since.
func (p *Part) Rows() int { return p.rows }

// Size returns the length in bytes of a part that is not compressed:
// what was saved, plus what was written since.
func (p *Part) Size() int64 { return p.size }

// Write appends b to the part.
func (p *Part) Write(b []byte) (int, error) {
	if p.w == nil {
		return 0, fmt.Errorf("%s was moved into place by an earlier run; remove its checkpoint to start afresh", p.Name)
	}
	if p.spent {
		return 0, fmt.Errorf("%s was emptied once its rows were spent; nothing more can be written to it", p.Name)
	}
	if p.compressed() {
		p.pending = append(p.pending, b...)
		if len(p.pending) >= MemberSize {
			return len(b), p.member()
		}
		return len(b), nil
	}
	n, err := p.w.Write(b)
	p.size += int64(n)
	return n, err
}

// member compresses the member in progress into the file.
func (p *Part) member() error {
	if len(p.pending) == 0 {
		return nil
	}
	if p.gz == nil {
		var err error
		if p.gz, err = gzip.NewWriterLevel(p.w, gzip.BestSpeed); err != nil {
			return err
		}
	} else {
		p.gz.Reset(p.w)
	}
	if _, err := p.gz.Write(p.pending); err != nil {
		return err
	}
	p.pending = p.pending[:0]
	return p.gz.Close()
}

// End ends a compressed part's member in progress, as when nothing more
// will be written to the part; it does nothing to other parts.
func (p *Part) End() error {
	if p.w == nil || !p.compressed() {
		return nil
	}
	if err := p.member(); err != nil {
		return fmt.Errorf("writing %s: %w", p.Name, err)
	}
	return nil
}

// ReadAt reads back len(b) bytes of what the part holds at offset off.
// A compressed part cannot be read back.
func (p *Part) ReadAt(b []byte, off int64) (int, error) {
	if p.w == nil {
		return 0, fmt.Errorf("%s is not open", p.Name)
	}
	if p.compressed() {
		return 0, fmt.Errorf("%s is compressed; it cannot be read back", p.Name)
	}
	if err := p.w.Flush(); err != nil {
		return 0, err
	}
	return p.f.ReadAt(b, off)
}

// Spent reports whether the part was emptied by drop.
func (p *Part) Spent() bool { return p.spent }

// drop empties the part, whose rows no one needs any more, for good:
// what it holds counts as nothing from the next Save on, when cut may
// remove it, and nothing more may be written to it. Rows still counts
// the rows it held. A run interrupted between the Save and cut cuts the
// file when it resumes, as it cuts any part to its saved length.
func (p *Part) drop() error {
	if p.w == nil || p.spent {
		return nil
	}
	p.pending = nil
	p.w.Reset(p.f)
	if _, err := p.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("emptying %s: %w", p.Name, err)
	}
	p.spent, p.size = true, 0
	return nil
}

// cut removes what a dropped part's file held, once a Save has recorded
// it empty.
func (p *Part) cut() error {
	if !p.spent || p.f == nil {
		return nil
	}
	if err := p.f.Truncate(0); err != nil {
		return fmt.Errorf("emptying %s: %w", p.Name, err)
	}
	return nil
}

// Row writes b as one row (a line, or a fixed-size record) of the part.
func (p *Part) Row(b []byte) error {
	if _, err := p.Write(b); err != nil {
		return fmt.Errorf("%s: %w", p.Name, err)
	}
	p.rows++
	return nil
}

func (p *Part) open() error {
	f, err := os.OpenFile(p.Name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return inputerr.Errorf("cannot write %s: %w", p.Name, unwrapPath(err))
	}
	info, err := f.Stat()
	if err == nil && info.Size() < p.saved.Bytes {
		err = fmt.Errorf("%s is shorter (%d bytes) than its checkpoint says (%d); remove it and its checkpoint to start afresh", p.Name, info.Size(), p.saved.Bytes)
	}
	if err == nil {
		err = f.Truncate(p.saved.Bytes)
	}
	if err == nil {
		_, err = f.Seek(p.saved.Bytes, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return err
	}
	p.f, p.w, p.size = f, bufio.NewWriterSize(f, 1<<16), p.saved.Bytes
	if p.compressed() {
		p.pending = bytes.Clone(p.saved.Pending)
	}
	p.spent = p.saved.Spent
	return nil
}

// flush makes what was written durable and returns the part's state.
func (p *Part) flush() (PartState, error) {
	if p.w == nil {
		return p.saved, nil
	}
	if err := p.w.Flush(); err != nil {
		return PartState{}, fmt.Errorf("writing %s: %w", p.Name, err)
	}
	if err := p.f.Sync(); err != nil {
		return PartState{}, fmt.Errorf("writing %s: %w", p.Name, err)
	}
	off, err := p.f.Seek(0, io.SeekCurrent)
	return PartState{Bytes: off, Rows: p.rows, Pending: bytes.Clone(p.pending), Spent: p.spent}, err
}

// Save makes every part durable and writes the checkpoint: the position,
// the parts' lengths and the job's state.
func (s *Store) Save(pos Position, state any) error {
	c := checkpoint{Schema: CheckpointSchema, Digest: s.digest, Pos: pos, Parts: make([]PartState, len(s.parts))}
	for i, p := range s.parts {
		ps, err := p.flush()
		if err != nil {
			return err
		}
		c.Parts[i] = ps
	}
	var err error
	if c.State, err = json.Marshal(state); err != nil {
		return err
	}
	data, err := json.Marshal(c)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(s.ckpt, data); err != nil {
		return err
	}
	for i, p := range s.parts {
		p.saved = c.Parts[i]
	}
	s.pos, s.state, s.resumed = pos, c.State, true
	return nil
}

// Close releases the parts without committing anything: the last
// checkpoint stays for the next run.
func (s *Store) Close() {
	for _, p := range s.parts {
		if p.f != nil {
			p.f.Close()
			p.f, p.w = nil, nil
		}
	}
}

// Commit ends the run: Place, then Remove.
func (s *Store) Commit(final []string) error {
	if _, err := s.Place(final); err != nil {
		return err
	}
	return s.Remove()
}

// Place makes every part durable, cut to what was written, and moves part
// k to final[k] ("" keeps it where it is); it returns the parts' lengths.
// A part that is gone while final[k] exists was moved by an earlier Place
// whose run was interrupted before it removed the checkpoint; it counts
// as moved. The checkpoint stays until Remove, so a run interrupted
// between the two finishes again.
func (s *Store) Place(final []string) ([]PartState, error) {
	states := make([]PartState, len(s.parts))
	for k, p := range s.parts {
		if p.gone && (final[k] == "" || !exists(final[k])) {
			return nil, fmt.Errorf("%s is gone, and %s is not there; remove %s to start afresh", p.Name, final[k], s.ckpt)
		}
		if err := p.End(); err != nil {
			return nil, err
		}
		ps, err := p.flush()
		if err != nil {
			return nil, err
		}
		states[k] = ps
	}
	s.Close()
	for k, p := range s.parts {
		if final[k] == "" || p.gone {
			continue
		}
		if err := os.Rename(p.Name, final[k]); err != nil {
			return nil, fmt.Errorf("writing %s: %w", final[k], err)
		}
		p.gone = true
	}
	return states, nil
}

func exists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

// Remove deletes the checkpoint (not the parts).
func (s *Store) Remove() error {
	if err := os.Remove(s.ckpt); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// withSave is err, the error that stopped a run, joined with saveErr, that
// of saving its checkpoint afterwards, unless saving failed for the same
// cause (a full disk fails both): a message then says it once.
func withSave(err, saveErr error) error {
	if saveErr == nil || sameCause(err, saveErr) {
		return err
	}
	return errors.Join(err, saveErr)
}

// sameCause reports whether a and b come from the same system error, or b
// says nothing a does not.
func sameCause(a, b error) bool {
	var ea, eb syscall.Errno
	if errors.As(a, &ea) && errors.As(b, &eb) {
		return ea == eb
	}
	return strings.Contains(a.Error(), b.Error())
}
