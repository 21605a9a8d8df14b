//go:build !race

package solver_test

// raceDetector is whether the tests run under the race detector, which
// makes the solver's searches about ten times slower.
const raceDetector = false
