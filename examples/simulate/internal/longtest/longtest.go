// Package longtest gates the simulator's long tests: whole replays of the
// trace, many replicates, sweeps. By default `go test ./...` runs a short
// but meaningful version of each and skips the long ones; CI (.ci/run)
// sets TENURE_LONG_TESTS=1 and runs them all.
package longtest

import (
	"os"
	"testing"
)

// Env is the environment variable that turns the long tests on when it
// is "1".
const Env = "TENURE_LONG_TESTS"

// Enabled reports whether the long tests run: Env is "1".
func Enabled() bool { return os.Getenv(Env) == "1" }

// Skip skips t unless the long tests run, saying how to run it.
func Skip(t testing.TB) {
	t.Helper()
	if !Enabled() {
		t.Skip("long test: run with " + Env + "=1 (as .ci/run does)")
	}
}
