package tenure

import (
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/evictionbudget"
	"github.com/tenurepolicy/tenure/eligibility/preemptordelay"
	"github.com/tenurepolicy/tenure/requeue"
)

// PreemptorDelayFilter makes [preemptordelay.Delay] a
// [requeue.VictimFilter]: a contender that has waited less than the delay
// since Contender.Queued may not cause an eviction (reason
// "preemptor_delay", Until = Queued + Delay; "queued_unknown" when Queued
// is zero). The engine then skips a victim that only such contenders could
// use, with the earliest Until among them. [New] installs it when
// Config.PreemptorDelay is set; it is usable in any
// [requeue.EngineConfig.Filters]. O(1), no allocation.
type PreemptorDelayFilter struct {
	// Delay is the preemptor-side delay; the zero value allows everything.
	Delay preemptordelay.Delay
}

// FilterVictim implements [requeue.VictimFilter].
func (f PreemptorDelayFilter) FilterVictim(now time.Time, _ *requeue.Victim, c *requeue.Contender) eligibility.Decision {
	return f.Delay.Check(c.Queued, now)
}

// EvictionBudgetFilter makes [evictionbudget.Budget] a
// [requeue.VictimFilter]: a victim already evicted Budget.Max times within
// Budget.Window is denied for every contender (reason
// "eviction_budget_exhausted", Until = when the oldest of those evictions
// leaves the window). An invalid record is allowed with
// "invalid_eviction_record": it counts as no eviction, so that a record the
// job's owner wrote cannot make the job unevictable.
// The engine's Victim carries no annotations, so Records supplies the
// victim's eviction-record annotation by job ID ("" when it has none; a
// nil Records reads every record as empty). It is for an embedder running
// its own [requeue.Engine]; the composed Policy applies the same rule with
// each victim's record decided once per pass, from the annotations of
// [RequeueInput].Running and RequeueInput.EvictionRecords. Cost: the lookup
// plus O(len(record)) per victim-contender pair; no allocation.
type EvictionBudgetFilter struct {
	// Budget is the eviction budget; the zero value allows everything.
	Budget evictionbudget.Budget
	// Records returns a job's eviction-record annotation.
	Records func(job string) string
}

// FilterVictim implements [requeue.VictimFilter].
func (f EvictionBudgetFilter) FilterVictim(now time.Time, v *requeue.Victim, _ *requeue.Contender) eligibility.Decision {
	var rec string
	if f.Records != nil {
		rec = f.Records(v.ID)
	}
	return f.Budget.Check(rec, now)
}
