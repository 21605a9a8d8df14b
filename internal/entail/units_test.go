package entail

import (
	"context"

	"github.com/nlsat/nlsat/internal/job"
	"github.com/nlsat/nlsat/internal/split"
	"github.com/nlsat/nlsat/internal/split/units"
)

// The entailment build is package units' build of Split; these name its
// parts for the tests of this package, which check entailment's data.
type (
	BuildPlan    = units.Plan
	BuildConfig  = units.Config
	BuildOptions = units.Options
	Manifest     = units.Manifest
	ShortError   = units.ShortError
)

var Kind = units.Kind(Split)

func NewBuildPlan(c BuildConfig) (*BuildPlan, error) { return units.NewPlan(Split, c) }

func Build(ctx context.Context, p *BuildPlan, o BuildOptions) (*Manifest, error) {
	return units.Build(ctx, Split, p, o)
}

func RunShard(ctx context.Context, p *BuildPlan, sh split.Shard, o BuildOptions) (*job.Manifest, error) {
	return units.RunShard(ctx, Split, p, sh, o)
}

func Merge(ctx context.Context, src *job.Shards, o BuildOptions) (*Manifest, error) {
	return units.Merge(ctx, Split, src, o)
}

func ReadManifest(name string) (*Manifest, error) { return units.ReadManifest(Split, name) }
