package tenure

import (
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/admitprotect"
	"github.com/tenurepolicy/tenure/eligibility/timebased"
)

// Classify applies the Policy's within-queue preemption (Config.Preemption,
// Kueue KEP-8522) to one candidate of preemptor p at the cycle's instant.
// Its Until counts toward [Cycle.Wake], a denied candidate's included (a
// protected equal-priority job becomes preemptible when its
// minAdmitDuration expires). To list a queue's preemptible candidates in
// preemption order, classify each, keep the allowed decisions and sort
// them with [timebased.Sort]. See
// [timebased.Config.Classify]. O(1); no allocation.
func (c *Cycle) Classify(p timebased.Request, cand timebased.Candidate) timebased.Decision {
	d := c.p.preemption.Classify(p, cand, c.now)
	c.note(d.Until)
	return d
}

// CheckAdmitted applies the Policy's KEP-9876 protection (Config.Protection)
// to a victim of a preemption of kind kind, admitted at admitted (the zero
// time: not admitted) and possibly already being evicted. A protected
// victim's Until, admitted + minAdmitDuration, is when the preemptor should
// be retried, and counts toward [Cycle.Wake]. See
// [admitprotect.Protection.Check]. O(1); no allocation.
func (c *Cycle) CheckAdmitted(kind admitprotect.Kind, admitted time.Time, evicted bool) eligibility.Decision {
	d := c.p.protection.Check(kind, admitted, evicted, c.now)
	c.note(d.Until)
	return d
}

// CheckPreemptor applies the Policy's preemptor-side delay
// (Config.PreemptorDelay) to a pending job queued at queued: whether it may
// cause evictions now. See [preemptordelay.Delay.Check]. O(1); no
// allocation.
func (c *Cycle) CheckPreemptor(queued time.Time) eligibility.Decision {
	d := c.p.delay.Check(queued, c.now)
	c.note(d.Until)
	return d
}

// CheckEvictionBudget applies the Policy's eviction budget
// (Config.EvictionBudget) to victim, reading its eviction-record
// annotation; a nil victim reads as a job without a record. See
// [evictionbudget.Budget.Check]. O(len(record)); no allocation.
func (c *Cycle) CheckEvictionBudget(victim *eligibility.Job) eligibility.Decision {
	d := c.p.budget.CheckJob(victim, c.now)
	c.note(d.Until)
	return d
}

// RecordEviction returns the eviction-record annotation (key and value) to
// write on victim when the scheduler evicts it in this cycle by any path
// other than [Cycle.Requeue] (which reports its own,
// [RequeueResult].EvictionRecords). Without a budget it returns the key and
// the current value unchanged. A nil victim has nothing to write on: the
// key and an empty value. O(len(record)); allocates the value.
func (c *Cycle) RecordEviction(victim *eligibility.Job) (key, value string) {
	key = c.p.budget.AnnotationKey()
	if victim == nil {
		return key, ""
	}
	return key, c.p.budget.Record(victim.Annotations[key], c.now)
}
