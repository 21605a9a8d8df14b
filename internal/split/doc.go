// Package split builds the datasets of nlsat split: it turns a stream of
// labelled random instances into splits of exact sizes, exactly balanced
// between sat and unsat in every stratum, with no instance repeated
// anywhere (as written, and by default up to a renaming of nouns and
// verbs and the order of sentences), written with a manifest, a dataset
// card and checksums. NewPlan resolves what a user asks (sizes, region,
// hold-outs, balance) into the Plan that decides every byte.
//
// # Determinism
//
// A build is a deterministic function of its Plan. Candidates of a pool are
// numbered; candidate i of pool p draws its instance from a generator
// seeded with (Seed, p·PoolStride + i) alone, and targets stratum
// i mod len(Strata). Candidates are considered strictly in index order; a
// stratum collects them until it can fill its quotas, then chooses its
// instances by a seeded shuffle (collect.go), and each split is written in
// another seeded order. So the output depends neither on the number of
// workers nor on interruptions: a build resumed from a checkpoint ends in
// the same bytes; and neither the index, nor the file order, nor the id
// of a record tells its label.
//
// # Runs, shards and merges
//
// A build is a job of internal/job: per set, two streams of pilot
// candidates (the surface balance's fit and its residual stage) and a
// stream of candidates. Run checkpoints into OUT/.nlsat-build and resumes
// there; RunShard draws shard j of N's candidates, those of index
// i ≡ j (mod N): of both pilots every one, and per stratum up to its
// budget (Plan.budget); Merge hands the shards' candidates, in index
// order, to the acceptor of an unsharded build, so that it writes the
// same bytes. The shards and the merge take turns (shard.go): the merge
// fits the balance models to what the shards drew and hands them over,
// and with them the shards decide themselves which candidates the
// balance keeps, so that the merge only selects and writes.
package split
