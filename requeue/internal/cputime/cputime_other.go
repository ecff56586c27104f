//go:build !unix

package cputime

import "time"

// Used is not measured here: benchmarks report 0 cpu-ns/op.
func Used() time.Duration { return 0 }
