package main

import (
	"fmt"
	"slices"
	"time"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/report"
	"github.com/tenurepolicy/tenure/runtime"
)

const (
	// overloadWarning: an offered GPU load above this means the queue
	// grows for most of the run, whatever the policy.
	overloadWarning = 1.5
	// minAdmitWarning: a min-admit below this lets equal-priority jobs
	// evict each other minutes after starting.
	minAdmitWarning = 10 * time.Minute
)

// warnings returns notes for settings that make the run's figures
// meaningless or dominated by an artefact: an offered load far above 1
// (waits then measure the backlog and the run's length, not the policy)
// and a near-zero min-admit for the time-based policy (jobs of equal
// priority evict each other almost at once).
func warnings(sum report.Summary, o options, policies []string) []report.Note {
	var out []report.Note
	if sum.OfferedLoad > overloadWarning {
		out = append(out, report.Note{Kind: "warning", Text: fmt.Sprintf(
			"offered GPU load %.2f is far above 1: the queue grows for the whole run, so waits and unfinished jobs measure the backlog, not the policy (shrink it with a smaller -node-stride or -speedup)", sum.OfferedLoad)})
	}
	if m := o.settings.MinAdmit; m < minAdmitWarning && slices.Contains(policies, "timebased") {
		out = append(out, report.Note{Kind: "warning", Policy: "timebased", Text: fmt.Sprintf(
			"min-admit %s is near zero: jobs of equal priority may evict each other minutes after starting, so evictions and lost work explode (try 30m or more)", runtime.FormatDuration(m))})
	}
	return out
}
