// Package generate samples and labels random instances of one fragment,
// the paper's Algorithm 1: the job behind nlsat generate.
//
// # Determinism
//
// Instance i draws its (m, n1, n2) and its sentences from
// rand.NewPCG(seed, i) alone, and its distractors from a stream of their
// own, so the instance does not depend on whether it has distractors, on
// the number of workers, on interruptions or on shards. Records are
// written in index order and numbered in the order written; instances an
// incomplete solver (z3) leaves undecided are counted per point and never
// written. An instance a complete solver (solver.IsComplete: native)
// leaves undecided fails the run, naming the instance: skipping it would
// bias the sample.
//
// # Runs, shards and merges
//
// Run, RunShard and Merge are one job (internal/job) with one stream of
// instances. Run writes Count records, resumably; a shard decides the
// instances i ≡ index (mod count) below Count × oversample; Merge hands the
// shards' instances, in index order, to the same code that writes an
// unsharded run, so it writes the same bytes.
package generate
