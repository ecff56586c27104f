package requeue

import (
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/runtime"
)

// VictimMinRuntimeFilter makes eligibility's min-runtime filter a
// [VictimFilter], as in KAI-Scheduler's expected-runtime requeue. A pair in
// the same leaf queue is a preempt, any other a reclaim with the
// contender's queue as the preemptor's. The victim is checked as a
// non-elastic job (the engine evicts whole jobs). A denial carries the
// filter's reason ("minruntime_protected", "clock_skew") and Until = start
// + min-runtime. It fails closed as the filter does: an unset or unknown
// queue is denied ("queue_unset", "unknown_queue"), and so is every victim
// of a nil Filter ("no_resolver"). No allocation.
type VictimMinRuntimeFilter struct {
	// Filter is eligibility's min-runtime filter; nil denies every victim
	// ([minruntime.ReasonNoResolver]).
	Filter *minruntime.Filter
}

// FilterVictim implements [VictimFilter].
func (f VictimMinRuntimeFilter) FilterVictim(now time.Time, v *Victim, c *Contender) eligibility.Decision {
	action := runtime.ActionReclaim
	if v.Queue == c.Queue {
		action = runtime.ActionPreempt
	}
	job := eligibility.Job{ID: v.ID, Queue: v.Queue, Priority: v.Priority, Preemptible: true, Running: true, Start: v.Start}
	d := f.Filter.Check(action, c.Queue, &job, now)
	return d.Decision
}
