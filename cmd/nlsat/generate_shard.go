package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/job"
	"github.com/nlsat/nlsat/internal/pipeline"
	"github.com/nlsat/nlsat/internal/solver"
)

// genLine is one instance of a generate shard: its index and either its
// record (id empty; merge numbers them) or why it stayed undecided.
type genLine struct {
	I      int             `json:"i"`
	Reason string          `json:"reason"`
	Record *dataset.Record `json:"record"`
}

// genShardPlan is what a generate shard records of its run for merge.
type genShardPlan struct {
	Config   json.RawMessage `json:"config"`
	Fragment string          `json:"fragment"`
	Count    int             `json:"count"`
	Limit    int             `json:"limit"`
}

const genCandidates = "instances.jsonl"

// runGenerateShard decides this shard's instances i ≡ index (mod count)
// below count × oversample into a directory, resumably.
func runGenerateShard(ctx context.Context, o *generateOptions, plan drawPlan, newBackend func() (solver.Backend, error),
	solverName, digest string, config json.RawMessage, s streams) error {
	sh := o.shard
	if sh.oversample < 1 {
		return usagef("--oversample must be at least 1 for generate")
	}
	limit := int(math.Ceil(float64(o.count) * sh.oversample))
	dir := o.out
	if dir == "-" || dir == "" {
		dir = fmt.Sprintf("generate-%s-shard-%d-of-%d", plan.frag, sh.index, sh.count)
	}
	gp := genShardPlan{Config: config, Fragment: plan.frag.String(), Count: o.count, Limit: limit}
	planJSON, _ := json.Marshal(gp)
	m := &job.Manifest{Schema: job.ManifestSchema, Kind: "generate", Toolkit: toolkit(), Command: "nlsat generate", Digest: digest, Plan: planJSON,
		Index: sh.index, Count: sh.count, Oversample: sh.oversample}
	if old, err := job.Read(dir); err == nil && old.Kind == m.Kind && old.Digest == digest && old.Index == sh.index &&
		old.Count == sh.count && old.Oversample == sh.oversample && job.Verify(dir, old) == nil {
		if !o.solver.quiet {
			fmt.Fprintf(s.Err, "nlsat: %s already holds this shard, checksums intact; nothing to do\n", dir)
		}
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return usageError{err}
	}
	var st genState
	rf, resumed, err := dataset.OpenResumable(filepath.Join(dir, genCandidates), fmt.Sprintf("%s/%d/%d/%g", digest, sh.index, sh.count, sh.oversample), &st)
	if err != nil {
		return usageError{err}
	}
	defer rf.Close()
	if !o.solver.quiet {
		fmt.Fprintf(s.Err, "nlsat: generate %s: %s into %s\n", plan.frag, sh.String(), dir)
		if resumed {
			fmt.Fprintf(s.Err, "nlsat: resuming at instance %d\n", sh.index+sh.count*st.Next)
		}
	}
	slots := 0
	if limit > sh.index {
		slots = (limit - sh.index + sh.count - 1) / sh.count
	}
	start, last := st.Next, time.Now()
	prog := newProgress(s.Err, fmt.Sprintf("generate %s shard %d/%d", plan.frag, sh.index, sh.count), slots, o.solver.quiet)
	prog.done = start
	err = pipeline.Run(ctx, pipeline.Config[solver.Backend, generated]{
		Workers: o.solver.jobs, Limit: max(0, slots-start),
		New: func() (solver.Backend, error) {
			if newBackend == nil {
				return nil, nil
			}
			return newBackend()
		},
		Close: closeBackend,
		Do: func(ctx context.Context, b solver.Backend, j int) (generated, error) {
			return generateOne(ctx, plan, b, sh.index+sh.count*(start+j))
		},
		Emit: func(j int, g generated) (bool, error) {
			i := sh.index + sh.count*(start+j)
			st.Next = start + j + 1
			status := g.v.Status
			prog.add(status, true)
			line := genLine{I: i}
			if newBackend != nil && status == solver.Unknown {
				line.Reason = g.v.Reason.String()
			} else {
				line.Record = g.record(plan)
				line.Record.Seed = dataset.SeedString(plan.seed, i)
				line.Record.Normalize()
				st.Written++
			}
			data, err := json.Marshal(line)
			if err != nil {
				return true, err
			}
			if _, err := rf.Write(append(data, '\n')); err != nil {
				return true, err
			}
			if time.Since(last) >= o.checkpoint {
				last = time.Now()
				return false, rf.Checkpoint(st)
			}
			return false, nil
		},
	})
	prog.finish()
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		if serr := rf.Checkpoint(st); serr != nil {
			return errors.Join(err, serr)
		}
		return err
	}
	if err := rf.Commit(); err != nil {
		return err
	}
	fr, err := job.Report(dir, genCandidates, st.Next)
	if err != nil {
		return err
	}
	m.Files = []job.FileReport{fr}
	data, _ := json.MarshalIndent(m, "", "  ")
	out, err := dataset.CreateAtomic(filepath.Join(dir, job.ManifestFile), nil)
	if err != nil {
		return err
	}
	out.Write(append(data, '\n'))
	if err := out.Commit(); err != nil {
		return err
	}
	if !o.solver.quiet {
		fmt.Fprintf(s.Err, "nlsat: shard %d of %d: %d instances decided of %d drawn; merge with: nlsat merge --out FILE SHARD_DIR...\n",
			sh.index, sh.count, st.Written, st.Next)
	}
	return nil
}

// mergeGenerate writes the first count decided instances of the shards in
// index order, numbered as one run numbers them.
func mergeGenerate(dirs []string, out string, s streams, quiet bool) error {
	byIndex, ms, err := job.Open(dirs, "generate")
	if err != nil {
		return err
	}
	var gp genShardPlan
	if err := json.Unmarshal(ms[0].Plan, &gp); err != nil {
		return fmt.Errorf("%s: %w", byIndex[0], err)
	}
	readers := make([]*bufio.Reader, len(byIndex))
	for j, dir := range byIndex {
		f, err := os.Open(filepath.Join(dir, genCandidates))
		if err != nil {
			return err
		}
		defer f.Close()
		readers[j] = bufio.NewReaderSize(f, 1<<16)
	}
	file, enc, err := createRecords(out, s)
	if err != nil {
		return err
	}
	defer file.Abort()
	written, undecided := 0, 0
	for i := 0; written < gp.Count; i++ {
		if i >= gp.Limit {
			return fmt.Errorf("the shards decided only %d of the %d instances asked for (%d undecided among the first %d); run them again with a higher --oversample",
				written, gp.Count, undecided, gp.Limit)
		}
		j := i % len(byIndex)
		b, err := readers[j].ReadBytes('\n')
		if err != nil && !(errors.Is(err, io.EOF) && len(b) > 0) {
			return fmt.Errorf("%s: instance %d: %v", filepath.Join(byIndex[j], genCandidates), i, err)
		}
		var line genLine
		if err := json.Unmarshal(b, &line); err != nil || line.I != i {
			return fmt.Errorf("%s: expected instance %d: the file is not a generate shard's", filepath.Join(byIndex[j], genCandidates), i)
		}
		if line.Record == nil {
			undecided++
			continue
		}
		line.Record.ID = fmt.Sprintf("%s-%06d", gp.Fragment, written)
		if err := enc.Encode(line.Record); err != nil {
			return err
		}
		written++
	}
	if err := file.Commit(); err != nil {
		return err
	}
	if !quiet {
		fmt.Fprintf(s.Err, "nlsat: merged %d shards: %d instances (%d undecided and dropped) into %s\n", len(byIndex), written, undecided, out)
	}
	return nil
}
