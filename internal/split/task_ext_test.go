package split_test

import (
	"github.com/nlsat/nlsat/internal/split"
	"github.com/nlsat/nlsat/internal/task/satunsat"
)

func init() { split.TaskAudit = satunsat.Task.Audit }
