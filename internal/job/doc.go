// Package job runs nlsat's indexed jobs (generate, split and
// phase-sweep): one engine for their workers, checkpoints, shards and
// merges.
//
// # Jobs
//
// A job is a list of streams of items. Item i of a stream is computed by a
// worker from i alone (its randomness comes from the master seed and i),
// so it does not depend on how items are spread over workers, runs or
// machines. Run computes the items of each stream in turn on Workers
// goroutines and hands them to the job's Emit strictly in index order,
// until the stream's Limit or until Emit stops it. What a job does with
// an item (write a record, accept a candidate into a split, keep a
// point's estimate) is all in its Emit; the engine knows nothing of it.
//
// # Checkpoints
//
// A Store is a run in progress: append-only part files and one checkpoint
// file (schema CheckpointSchema) with the configuration's digest, the
// Position (stream and next item), the valid length of every part and the
// job's own state. Run saves it every Config.Every, after each stream and
// when it fails; a run started on the same Store resumes from its
// position, and the parts are cut back to their checkpointed length, so
// that a run killed at any point and resumed ends in the bytes of one
// that was not. A store of another digest is refused.
//
// # Shards
//
// RunShard computes shard j of N: the items i ≡ j (mod N) of every stream
// below its ShardLimit that its Drawn filter allows, each written as a
// JSON line {"i": i, "r": item} to NAME.jsonl in the shard's directory, and
// at the end a manifest, shard.json, with the kind of job, the digest and
// plan of its configuration and every file's checksum. ResolveSlot finds
// j and N from flags or from the environment of a Kubernetes Indexed Job
// or a Slurm job array. OpenShards checks a set of shard directories (one
// kind and configuration, each index once, every file intact); Run with
// Config.Source set then reads the items from them instead of computing
// them. A merge so runs exactly the Emit of an unsharded run and writes
// the same bytes.
//
// A stream whose items need what the merge learns from the streams
// before it (Config.Ready) makes the shards and the merge take turns: a
// shard stops before it, publishes the streams it has drawn with a
// manifest that says how far it got (Manifest.Through) and returns
// ErrWaiting; a merge reads the shards as far as all of them got,
// checkpoints and returns ErrWaiting too. Run again after the merge, a
// shard goes on from its checkpoint, and then the merge from its own.
package job
