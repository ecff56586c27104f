package tenure

import (
	"cmp"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/admitprotect"
	"github.com/tenurepolicy/tenure/eligibility/evictionbudget"
	"github.com/tenurepolicy/tenure/eligibility/timebased"
	"github.com/tenurepolicy/tenure/requeue"
)

// Classify applies Config.Preemption (KEP-8522) to one candidate of
// preemptor p ([timebased.Config.Classify]); sort the allowed ones with
// [timebased.Sort]. O(1); no allocation.
func (c *Cycle) Classify(p timebased.Request, cand timebased.Candidate) timebased.Decision {
	d := c.p.preemption.Classify(p, cand, c.now)
	c.note(d.Until)
	return d
}

// CheckAdmitted applies Config.Protection (KEP-9876) to a victim of a
// preemption of kind kind, admitted at admitted (zero: not admitted)
// ([admitprotect.Protection.Check]). A denial's Until is the victim's
// protection expiry (admitted + d), and it lowers [Cycle.Wake]: after a
// cycle whose only denials are these, Wake is exactly the earliest
// expiry among them. That is the instant Kueue retries the preemptor
// (kubernetes-sigs/kueue PR #12996: its ProtectionSkipTracker keeps the
// earliest expiry of the candidates skipped for their protection, and the
// scheduler re-broadcasts the root cohort then, since no cluster event
// would requeue the preemptor). Ask it after the preemption's other criteria, as
// Kueue does, so that a denial means the protection alone kept the
// victim. O(1); no allocation.
func (c *Cycle) CheckAdmitted(kind admitprotect.Kind, admitted time.Time, evicted bool) eligibility.Decision {
	d := c.p.protection.Check(kind, admitted, evicted, c.now)
	c.note(d.Until)
	return d
}

// CheckPreemptor applies Config.PreemptorDelay to contender, a pending job
// that would cause evictions (preempt, reclaim, consolidation; never plain
// allocation): its own delay annotation, else the default, counted from
// the later of its Queued and LastEvicted ([preemptordelay.Delay.Check]).
// A nil contender is the zero Contender. O(len of its own delay); no
// allocation.
func (c *Cycle) CheckPreemptor(contender *requeue.Contender) eligibility.Decision {
	if contender == nil {
		contender = &requeue.Contender{}
	}
	d := c.p.delay.Check(contender.Queued, contender.LastEvicted, contender.Annotations, c.now)
	c.note(d.Until)
	return d
}

// CheckEvictionBudget applies Config.EvictionBudget to victim's
// eviction-record annotation ([evictionbudget.Budget.Check]); a nil victim
// has no record. O(len(record)); no allocation.
func (c *Cycle) CheckEvictionBudget(victim *eligibility.Job) eligibility.Decision {
	var record string
	if victim != nil {
		record = victim.Annotations[cmp.Or(c.p.budget.Key, evictionbudget.Annotation)]
	}
	d := c.p.budget.Check(record, c.now)
	c.note(d.Until)
	return d
}

// RecordEviction returns the eviction-record annotation to write on victim
// when the scheduler evicts it other than through [Cycle.Requeue]: without
// a budget, the current value; for a nil victim, "". O(len(record)).
func (c *Cycle) RecordEviction(victim *eligibility.Job) (key, value string) {
	key = cmp.Or(c.p.budget.Key, evictionbudget.Annotation)
	if victim == nil {
		return key, ""
	}
	return key, c.p.budget.Record(victim.Annotations[key], c.now)
}
