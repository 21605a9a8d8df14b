// Package inputerr is the user-error class of nlsat: an error in what a
// command was given (a file that is not what it should be, an output path
// that cannot be written, a checkpoint or shard of another configuration)
// rather than a failure while it ran. Any package may return one; the
// commands report it as a usage error (exit status 2).
package inputerr

import "fmt"

// Error marks Err as an error in a command's input.
type Error struct{ Err error }

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Errorf formats an Error.
func Errorf(format string, a ...any) error { return &Error{fmt.Errorf(format, a...)} }
