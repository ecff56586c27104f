//go:build unix

package reserve

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user and system) the test process has used so
// far: benchmarks report it beside the wall time, which the other
// processes of a shared machine inflate.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
