package split

import "github.com/nlsat/nlsat/internal/audit"

// TaskAudit is the sat/unsat task's audit, which the builds of the tests
// record and some tests run. Its package stands above this one (it
// imports the builds), so an external test file sets it.
var TaskAudit audit.Task
