package requeuetest

import (
	"fmt"
	"strings"
)

// failure is the error [TestModel] returns when a model breaks its
// contract or does not restore its state. It says what went wrong, where,
// and how to run the same operations again.
type failure struct {
	// Problem says what went wrong, in one sentence (a panic adds its
	// stack on the following lines).
	Problem string
	// Seed, Sequence and Step locate the failure; Sequence and Step count
	// from 0 and 1. Steps is the run's operations per sequence. To replay
	// the failure, rerun with Options{Seed: Seed, Steps: Steps} (the same
	// Steps: where a sequence ends changes what its final rollback checks)
	// and at least Sequence+1 sequences.
	Seed     uint64
	Sequence int
	Step     int
	Steps    int
	// Trace lists the operations of the failing sequence, oldest first,
	// up to the one that failed: what was called, on which job, with what
	// result. Marks (checkpoints and savepoints the kit rolls back to) are
	// numbered #0, #1, ... in the order they were taken.
	Trace []string
	// Want and Got are the model's expected and actual state texts when
	// the problem is a state that was not restored; empty otherwise.
	Want, Got string
}

// Error formats the failure on several lines: the problem, how to replay
// it, the states and how they differ, and the trace.
func (f *failure) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "requeuetest: %s\n", f.Problem)
	replay := fmt.Sprintf("requeuetest.Options{Seed: %d", f.Seed)
	if f.Steps != defaultSteps && f.Steps > 0 {
		replay += fmt.Sprintf(", Steps: %d", f.Steps)
	}
	replay += "}"
	fmt.Fprintf(&b, "seed %d, sequence %d, step %d (replay with %s)\n", f.Seed, f.Sequence, f.Step, replay)
	if f.Want != "" || f.Got != "" {
		fmt.Fprintf(&b, "want state:\n%s\ngot state:\n%s\n", indent(f.Want), indent(f.Got))
		if strings.Contains(f.Want, "\n") || strings.Contains(f.Got, "\n") {
			b.WriteString("difference (-want +got):\n")
			b.WriteString(lineDiff(f.Want, f.Got))
		}
	}
	b.WriteString("operations:\n")
	for i, op := range f.Trace {
		fmt.Fprintf(&b, "  %3d. %s\n", i+1, op)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func indent(s string) string {
	const limit = 4000
	if len(s) > limit {
		s = s[:limit] + " [...]"
	}
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}

// lineDiff lists the lines of want missing from got (-) and the lines of
// got missing from want (+), counting repeated lines.
func lineDiff(want, got string) string {
	count := map[string]int{}
	for _, l := range strings.Split(got, "\n") {
		count[l]++
	}
	var b strings.Builder
	for _, l := range strings.Split(want, "\n") {
		if count[l] > 0 {
			count[l]--
			continue
		}
		fmt.Fprintf(&b, "  - %s\n", l)
	}
	for _, l := range strings.Split(got, "\n") {
		if count[l] > 0 {
			count[l]--
			fmt.Fprintf(&b, "  + %s\n", l)
		}
	}
	return b.String()
}
