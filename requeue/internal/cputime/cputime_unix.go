//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// Used is the CPU time (user and system) the process has used so far:
// benchmarks report it beside the wall time, which the other processes of
// a shared machine inflate.
func Used() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
