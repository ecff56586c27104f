package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// The default soft memory limit applies when GOMEMLIMIT is unset, and a
// limit GOMEMLIMIT set (which the runtime read at start) is left alone.
func TestMemoryLimitDefault(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })

	debug.SetMemoryLimit(math.MaxInt64)
	if got := applyMemoryLimit(""); got != defaultMemoryLimit {
		t.Errorf("GOMEMLIMIT unset: limit %d, want the default %d", got, defaultMemoryLimit)
	}
	debug.SetMemoryLimit(2 << 30) // as GOMEMLIMIT=2GiB would have
	if got := applyMemoryLimit("2GiB"); got != 2<<30 {
		t.Errorf("GOMEMLIMIT=2GiB: limit %d, want it kept", got)
	}
	debug.SetMemoryLimit(math.MaxInt64) // as GOMEMLIMIT=off would have
	if got := applyMemoryLimit("off"); got != math.MaxInt64 {
		t.Errorf("GOMEMLIMIT=off: limit %d, want none", got)
	}
}
