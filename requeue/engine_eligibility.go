package requeue

import (
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/runtime"
)

// VictimMinRuntimeFilter makes eligibility's min-runtime filter a
// [VictimFilter]: in KAI-Scheduler's expected-runtime requeue, the Requeue
// action's victim filters, the min-runtime filter among them, prevent an
// eviction during the protection.
//
// For each victim-contender pair the action is a preempt when both are in
// the same leaf queue (Victim.Queue == Contender.Queue) and a reclaim
// otherwise, with the contender's queue as the preemptor's. The engine
// evicts whole jobs, so the victim is checked as a non-elastic job: an
// elastic job still inside its min-runtime is protected as a whole (evicting
// all of it would take every subgroup below its minimum).
//
// A denial carries eligibility's reason label ("minruntime_protected", or
// "clock_skew" for a start in the future) and Until = start + min-runtime.
// It fails closed as eligibility's filter does: a victim whose Queue is
// unset (queuetree.None, the zero value) or unknown, or a contender's
// when the answer depends on it, is denied with "queue_unset" or
// "unknown_queue" and no Until. The zero value (nil Filter) fails closed
// too, as a nil [minruntime.Filter] does: every victim is denied
// with "no_resolver". No allocation.
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
