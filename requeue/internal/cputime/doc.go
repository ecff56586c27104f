// Package cputime reads the process's CPU time, for the benchmarks of the
// requeue packages (beside wall time, which a shared machine inflates).
package cputime
