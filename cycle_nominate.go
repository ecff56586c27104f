package tenure

import "github.com/tenurepolicy/tenure/eligibility"

// Nominate asks the expected-runtime nominator about one running job at
// the cycle's instant ([eligibility.Nominator.Evaluate]) and notes the
// outcome's Until in [Cycle.Wake]: the instant a skipped job (cooldown,
// min-runtime protection, clock skew) or one not yet past its expected
// runtime should be looked at again. It is for a scheduler that evaluates
// jobs as events arrive (a job starts, a timer fires) instead of handing
// every running job to [Cycle.Requeue] each cycle; it then hands the
// nominations it kept to Requeue in RequeueInput.Nominations and Victims
// (requeue.EngineInput.AddNominations writes both) with Running empty.
// O(1): at most four annotation lookups and parses; no allocation but
// the error of an invalid annotation. A nil job is the zero Job.
func (c *Cycle) Nominate(job *eligibility.Job) eligibility.NominatorOutcome {
	o := c.p.nominator.Evaluate(job, c.now)
	c.note(o.Until) // zero for a nomination
	return o
}
