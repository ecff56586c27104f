package tenure

import (
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
)

// Nominate asks the expected-runtime nominator about one running job at
// the cycle's instant ([expectedruntime.Nominator.Evaluate]), reports the
// answer to Config.Observer and Config.Logger as [Cycle.Requeue] does for
// each of its Running jobs ([expectedruntime.Nominator.Report]), and notes its
// Until in [Cycle.Wake]: the instant a job not yet past its expected
// runtime reaches it, a cooldown ends, or a job whose start lies ahead of
// the clock starts. It is for a scheduler that evaluates jobs as events
// arrive (a job starts, a timer fires) instead of handing every running
// job to Requeue each cycle.
//
// Such a scheduler then hands the nominations it kept to Requeue in
// [RequeueInput].Nominated, with Running empty, and, under Config.EvictionBudget, their
// eviction-record annotations in RequeueInput.EvictionRecords: Requeue
// reads the records of Running jobs itself, and a victim whose record is
// missing counts as never evicted and gets a new record of one entry.
//
// O(1): at most four annotation lookups and parses; no allocation but the
// error of an invalid annotation and the logger's. A nil job is the zero
// Job.
func (c *Cycle) Nominate(job *eligibility.Job) expectedruntime.Outcome {
	o := c.p.nominator.Evaluate(job, c.now)
	c.p.nominator.Report(&o)
	c.note(o.Until) // zero for a nomination
	return o
}
