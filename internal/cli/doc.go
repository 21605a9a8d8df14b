// Package cli holds what every nlsat command shares beyond its own flags:
// the one mapping of errors to exit codes, shell completion of flag
// values and files, and the text of --version.
//
// # Exit codes
//
// 0 success, 1 failure, 2 usage error (a bad flag, argument or input,
// marked by Usage, inputerr.Error or cobra's own argument
// errors), 130 interrupted. Exit prints the error as one line.
package cli
