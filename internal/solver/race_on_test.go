//go:build race

package solver_test

const raceDetector = true
