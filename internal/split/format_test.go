package split

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/cardtest"
	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
)

// decoded returns the records of a split file of any format as JSONL.
func decoded(t *testing.T, name string) []byte {
	t.Helper()
	b, err := dataset.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// minimalOf returns the text and label of JSONL records, as the minimal
// layout writes them.
func minimalOf(t *testing.T, lines []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, _ := dataset.NewWriter(&buf, dataset.Output{Format: dataset.JSONL, Minimal: true})
	if _, err := w.Write(lines); err != nil {
		t.Fatal(err)
	}
	w.Close()
	return buf.Bytes()
}

// checkFormat checks a build in output o against the JSONL build ref:
// the same records in every file, files named for the format, the
// manifest's checksums and the card's data files and features.
func checkFormat(t *testing.T, dir, ref string, o dataset.Output) {
	t.Helper()
	if err := Verify(dir); err != nil {
		t.Fatal(err)
	}
	m, err := ReadManifest(filepath.Join(dir, ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, fr := range m.Files {
		if !strings.HasSuffix(fr.Path, o.Format.Ext()) {
			t.Errorf("%s is not named for format %s", fr.Path, o.Format)
		}
		want := decoded(t, filepath.Join(ref, dataset.WithFormat(fr.Path, dataset.JSONL)))
		if o.Minimal {
			want = minimalOf(t, want)
		}
		if got := decoded(t, filepath.Join(dir, fr.Path)); !bytes.Equal(got, want) {
			t.Errorf("%s: records differ from the JSONL build's (%d vs %d bytes)", fr.Path, len(got), len(want))
		}
		if o.Format == dataset.Parquet {
			cardtest.ParquetMatches(t, filepath.Join(dir, fr.Path), cardFeatures(m))
			// Copied alone, without the card, the file still says what
			// its columns are and the label's class names.
			alone := filepath.Join(t.TempDir(), filepath.Base(fr.Path))
			data, err := os.ReadFile(filepath.Join(dir, fr.Path))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(alone, data, 0o644); err != nil {
				t.Fatal(err)
			}
			cardtest.HFMetadataMatches(t, alone, cardFeatures(m))
		}
	}
	card, _ := os.ReadFile(filepath.Join(dir, CardFile))
	cardtest.CheckInfo(t, card)
	for _, fr := range m.Files {
		if !bytes.Contains(card, []byte("path: "+fr.Path+"\n")) {
			t.Errorf("the card's data_files do not name %s", fr.Path)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, workDir)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the work directory is left behind")
	}
}

// TestBuildFormats builds one plan as JSONL and in the other formats:
// the same records, interrupted and resumed, merged from shards, and
// the same bytes for any number of workers.
func TestBuildFormats(t *testing.T) {
	p := smallPlan(t, fragments.S, 200, 40, 40, 0, 0)
	ref := t.TempDir()
	if _, err := Run(context.Background(), p, testOptions(ref, 2)); err != nil {
		t.Fatal(err)
	}
	outputs := []dataset.Output{{Format: dataset.Parquet}, {Format: dataset.JSONLZstd}, {Format: dataset.JSONLGzip}, {Format: dataset.Parquet, Minimal: true}}
	var shards []string
	parquetDir := t.TempDir()
	if testing.Short() {
		outputs = outputs[:1]
	} else {
		shards = shardDirs(t, p, 2)
	}
	for _, o := range outputs {
		t.Run(o.String(), func(t *testing.T) {
			dir := t.TempDir()
			if o == (dataset.Output{Format: dataset.Parquet}) {
				dir = parquetDir
			}
			opt := testOptions(dir, 3)
			opt.Output = o
			if _, err := Run(context.Background(), p, opt); err != nil {
				t.Fatal(err)
			}
			checkFormat(t, dir, ref, o)
			if testing.Short() {
				return
			}
			want := cardtest.ReadTree(t, dir)
			resumed := t.TempDir()
			buildInterrupted(t, p, resumed, o)
			sameTree(t, want, cardtest.ReadTree(t, resumed))
			merged := filepath.Join(t.TempDir(), "merged")
			opt = testOptions(merged, 1)
			opt.Output = o
			if _, err := merge(context.Background(), shards, opt); err != nil {
				t.Fatal(err)
			}
			sameTree(t, want, cardtest.ReadTree(t, merged))
		})
	}
	// An independent reader reads the Parquet files as the JSONL ones.
	for _, sp := range p.Pools[0].Splits {
		checkIndependentReader(t, filepath.Join(parquetDir, dataset.WithFormat(sp.File, dataset.Parquet)), filepath.Join(ref, sp.File))
	}
}

// buildInterrupted builds p into dir with one worker, cancelled halfway
// through and resumed.
func buildInterrupted(t *testing.T, p *Plan, dir string, o dataset.Output) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opt := testOptions(dir, 1)
	opt.Output = o
	opt.Progress = func(_ string, accepted, _, _ int) {
		if accepted >= 100 {
			cancel()
		}
	}
	if _, err := Run(ctx, p, opt); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want canceled", err)
	}
	opt = testOptions(dir, 2)
	opt.Output = o
	if _, err := Run(context.Background(), p, opt); err != nil {
		t.Fatal(err)
	}
}

// shardDirs runs the n shards of p to their end, taking turns with a
// merge into a directory of its own. They keep their pilots, so that
// they can be merged again from scratch.
func shardDirs(t *testing.T, p *Plan, n int) []string {
	t.Helper()
	var dirs []string
	for range n {
		dirs = append(dirs, filepath.Join(t.TempDir(), "shard"))
	}
	if _, err := shardTurnsKeeping(context.Background(), p, dirs, filepath.Join(t.TempDir(), "merged"), 2, true); err != nil {
		t.Fatal(err)
	}
	return dirs
}

// shardTurns builds p as the shards dirs (shard j of len(dirs) in
// dirs[j], each on workers workers, all at once) merged into out: the
// shards and the merge take turns until the merge is done. The merge is
// given the shards last to first: it orders them itself.
func shardTurns(ctx context.Context, p *Plan, dirs []string, out string, workers int) (*Manifest, error) {
	return shardTurnsKeeping(ctx, p, dirs, out, workers, false)
}

// shardTurnsKeeping is shardTurns, with shards that keep their pilots
// (Shard.KeepPilots) if keep.
func shardTurnsKeeping(ctx context.Context, p *Plan, dirs []string, out string, workers int, keep bool) (*Manifest, error) {
	backwards := slices.Clone(dirs)
	slices.Reverse(backwards)
	for range 4 {
		errs := make(chan error, len(dirs))
		for j, dir := range dirs {
			go func() {
				_, err := RunShard(ctx, p, Shard{Index: j, Count: len(dirs), KeepPilots: keep}, testOptions(dir, workers))
				if errors.Is(err, ErrWaiting) || errors.Is(err, ErrAlreadyBuilt) {
					err = nil
				}
				errs <- err
			}()
		}
		var failed error
		for range dirs {
			failed = cmp.Or(failed, <-errs)
		}
		if failed != nil {
			return nil, failed
		}
		m, err := merge(ctx, backwards, testOptions(out, 2))
		if !errors.Is(err, ErrWaiting) {
			return m, err
		}
	}
	return nil, errors.New("the shards and the merge still wait after four turns")
}

// TestBuildFormatRefusesOther: a directory built in one format is not
// taken for the same build in another.
func TestBuildFormatRefusesOther(t *testing.T) {
	p := smallPlan(t, fragments.S, 40, 20, 20, 0, 0)
	dir := t.TempDir()
	if _, err := Run(context.Background(), p, testOptions(dir, 2)); err != nil {
		t.Fatal(err)
	}
	opt := testOptions(dir, 2)
	opt.Output = dataset.Output{Format: dataset.Parquet}
	if _, err := Run(context.Background(), p, opt); err == nil || errors.Is(err, ErrAlreadyBuilt) || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("got %v, want a refusal of the non-empty directory", err)
	}
}

// TestProofsCard builds a dataset with proofs as Parquet: the card
// declares the proof features (proof, a list of structs, and
// difficulty.proof_depth), and every file's columns have the Arrow types
// those features give, as cardtest reads the card's list: feature.
func TestProofsCard(t *testing.T) {
	p := smallPlan(t, fragments.S, 40, 8, 8, 0, 0)
	p.Proofs = true
	dir := t.TempDir()
	opt := testOptions(dir, 2)
	opt.Output = dataset.Output{Format: dataset.Parquet}
	m, err := Run(context.Background(), p, opt)
	if err != nil {
		t.Fatal(err)
	}
	card, err := os.ReadFile(filepath.Join(dir, CardFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(card, []byte(proofFeatures)) {
		t.Fatalf("the card does not declare the proof features:\n%s", card)
	}
	cardtest.CheckInfo(t, card)
	fs := cardtest.Features(t, proofFeatures)
	last := fs[len(fs)-1]
	if last.Name != "proof" || last.ArrowType() != "list<struct<premises:list<int64>,rule:string,sentence:int64,formula:string,english:string>>" {
		t.Errorf("the proof feature reads as %s %s", last.Name, last.ArrowType())
	}
	for _, fr := range m.Files {
		cardtest.ParquetMatches(t, filepath.Join(dir, fr.Path), proofFeatures)
		cardtest.HFMetadataMatches(t, filepath.Join(dir, fr.Path), proofFeatures)
	}
}
