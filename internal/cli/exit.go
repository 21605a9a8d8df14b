package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/nlsat/nlsat/internal/inputerr"
)

// Exit codes, the same for every command.
const (
	ExitOK          = 0
	ExitFailure     = 1
	ExitUsage       = 2
	ExitInterrupted = 130
)

// ExitCodesHelp is the sentence each command's help ends with.
const ExitCodesHelp = `Exit status: 0 success, 1 failure, 2 usage error (bad flag, argument or
input; nothing is written), 130 interrupted.`

// Usage is implemented by the errors a command marks as caused by how it
// was called or by bad input; they exit with status 2.
type Usage interface {
	error
	Usage()
}

// Exit reports err, the outcome of a run under ctx, on w as one line and
// returns the exit code.
func Exit(ctx context.Context, w io.Writer, err error) int {
	if err == nil {
		return ExitOK
	}
	if errors.Is(err, context.Canceled) || ctx.Err() != nil {
		fmt.Fprintln(w, "nlsat: interrupted; no finished output was written")
		return ExitInterrupted
	}
	fmt.Fprintf(w, "nlsat: %s\n", strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", "; "))
	if IsUsage(err) {
		return ExitUsage
	}
	return ExitFailure
}

// IsUsage reports whether err is about how the command was called or
// what it was given.
func IsUsage(err error) bool {
	var ue Usage
	var ie *inputerr.Error
	return errors.As(err, &ue) || errors.As(err, &ie) || isCobraUsage(err)
}

// isCobraUsage recognises cobra's own argument errors, which it does not
// type.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand", "accepts ", "requires at least",
		"invalid argument", "required flag", "flag needs an argument", "if any flags in the group"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}
