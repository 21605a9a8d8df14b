package entail_test

import (
	"github.com/nlsat/nlsat/internal/audit"
	"github.com/nlsat/nlsat/internal/entail"
	"github.com/nlsat/nlsat/internal/task/entailment"
)

// The builds of the tests record the entailment task's audit.
func init() { entail.ManifestAudit = audit.ForManifest(entailment.Task.Audit) }
