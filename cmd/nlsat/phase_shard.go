package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/job"
	"github.com/nlsat/nlsat/internal/phase"
)

func shardPointsFile(f fragments.Fragment) string { return "points-" + f.String() + ".jsonl" }

// writeShardPoints writes a shard's records of fragment f.
func writeShardPoints(dir string, f fragments.Fragment, recs []phase.Record) (job.FileReport, error) {
	name := shardPointsFile(f)
	err := phase.WriteFile(filepath.Join(dir, name), func(w io.Writer) error {
		for _, r := range recs {
			data, err := json.Marshal(r)
			if err != nil {
				return err
			}
			if _, err := w.Write(append(data, '\n')); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return job.FileReport{}, err
	}
	fr, err := job.Report(dir, name, len(recs))
	fr.Set = f.String()
	return fr, err
}

// writeSweepShard writes the manifest of a finished phase-sweep shard and
// removes its checkpoints.
func writeSweepShard(o *phaseSweepOptions, plans []sweepPlan, files []job.FileReport, s streams) error {
	planJSON, _ := json.Marshal(plans)
	digest := ""
	for _, sp := range plans {
		digest += sp.digest()
	}
	m := &job.Manifest{Schema: job.ManifestSchema, Kind: "phase-sweep", Toolkit: toolkit(), Command: "nlsat phase-sweep", Plan: planJSON,
		Index: o.shard.slot.Index, Count: o.shard.slot.Count, Files: files}
	sum := sha256Hex([]byte(digest))
	m.Digest = sum
	data, _ := json.MarshalIndent(m, "", "  ")
	if err := phase.WriteFile(filepath.Join(o.out, job.ManifestFile), func(w io.Writer) error {
		_, err := w.Write(append(data, '\n'))
		return err
	}); err != nil {
		return err
	}
	for _, sp := range plans {
		os.Remove(filepath.Join(o.out, ".phase-sweep-"+sp.Fragment+".checkpoint.json"))
	}
	if !o.solver.quiet {
		fmt.Fprintf(s.Err, "nlsat: phase-sweep %s done; merge all shards with: nlsat merge --out DIR SHARD_DIR...\n", o.shard.slot.String())
	}
	return nil
}

// mergeSweep writes the files of a whole sweep from its job.
func mergeSweep(dirs []string, out string, s streams, quiet bool) error {
	byIndex, ms, err := job.Open(dirs, "phase-sweep")
	if err != nil {
		return err
	}
	var plans []sweepPlan
	if err := json.Unmarshal(ms[0].Plan, &plans); err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(byIndex[0], job.ManifestFile), err)
	}
	start := time.Now()
	for _, sp := range plans {
		f := sp.frag()
		recs := map[phase.Point]phase.Record{}
		for _, dir := range byIndex {
			name := filepath.Join(dir, shardPointsFile(f))
			file, err := os.Open(name)
			if err != nil {
				return err
			}
			sc := bufio.NewScanner(file)
			for line := 1; sc.Scan(); line++ {
				var r phase.Record
				if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
					file.Close()
					return fmt.Errorf("%s:%d: not a point record: %v", name, line, err)
				}
				if _, dup := recs[r.Point]; dup {
					file.Close()
					return fmt.Errorf("%s:%d: point m=%d n1=%d n2=%d appears in two shards", name, line, r.M, r.N1, r.N2)
				}
				recs[r.Point] = r
			}
			file.Close()
		}
		all := make([]phase.Record, 0, len(sp.Points))
		for _, p := range sp.Points {
			r, ok := recs[p]
			if !ok {
				return fmt.Errorf("fragment %s: no shard holds point m=%d n1=%d n2=%d", f, p.M, p.N1, p.N2)
			}
			all = append(all, r)
		}
		dir := out
		if len(plans) > 1 {
			dir = filepath.Join(out, f.String())
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		if err := writeSweepFiles(dir, sp, all, s, quiet, time.Since(start)); err != nil {
			return err
		}
	}
	if !quiet {
		fmt.Fprintf(s.Err, "nlsat: merged %d shards into %s\n", len(byIndex), out)
	}
	return nil
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
