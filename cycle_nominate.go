package tenure

import (
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
)

// Nominate asks the expected-runtime nominator about one running job
// ([expectedruntime.Nominator.Evaluate]) and reports the answer to the
// Observer and Logger, as Requeue does for each of its Running jobs, for a
// scheduler that evaluates jobs as events arrive. That scheduler hands the
// nominations it keeps to Requeue in [RequeueInput].Nominated (with their
// eviction-record annotations in RequeueInput.EvictionRecords). O(1); a
// nil job is the zero Job.
func (c *Cycle) Nominate(job *eligibility.Job) expectedruntime.Outcome {
	o := c.p.nominator.Evaluate(job, c.now)
	c.p.nominator.Report(&o)
	c.note(o.Until) // zero for a nomination
	return o
}
