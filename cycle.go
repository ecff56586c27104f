package tenure

import (
	"cmp"
	"slices"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/evictionbudget"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/runtime"
)

// Cycle is one scheduling cycle of a [Policy]: one instant, shared by
// every decision made through it, and the earliest instant at which any of
// them may change ([Cycle.Wake]). A Cycle belongs to the goroutine running
// the cycle; use a new one for each cycle.
type Cycle struct {
	p    *Policy
	now  time.Time
	wake time.Time
}

// Now returns the cycle's instant: the one clock read of [Policy.Begin], or
// the instant given to [Policy.BeginAt]. Every decision of c sees it.
func (c *Cycle) Now() time.Time { return c.now }

// Wake returns the earliest Until after the cycle's instant among the
// decisions made through c so far (a protection, cooldown, delay or budget
// window ends, a job reaches its expected runtime), or the instant itself
// when a requeue engine pass deferred nominations after it made progress
// (committed a set or placed a contender without eviction: run the next
// cycle at once, it may go further). A pass that deferred without progress
// would only repeat itself on the same state, so it leaves Wake to the
// other decisions: a scheduler that sleeps until Wake does not spin. The
// zero time means no decision changes by time alone. O(1).
func (c *Cycle) Wake() time.Time { return c.wake }

// note lowers Wake to until when until is after the cycle's instant: an
// Until at or before now is an answer that already holds, which nothing
// waits for.
func (c *Cycle) note(until time.Time) {
	if until.After(c.now) {
		c.wake = eligibility.Earliest(c.wake, until)
	}
}

// CheckVictim asks the min-runtime filter whether victim may be evicted by
// a preemptor in queue preemptor, for action ([minruntime.Filter.Check]).
// O(1) or O(log depth); no allocation.
func (c *Cycle) CheckVictim(action runtime.Action, preemptor queuetree.ID, victim *eligibility.Job) minruntime.Decision {
	d := c.p.filter.Check(action, preemptor, victim, c.now)
	c.note(d.Until)
	return d
}

// ValidateScenario asks whether evicting the given tasks keeps every
// still-protected elastic victim at its MinAvailable
// ([minruntime.Validator.Validate]).
func (c *Cycle) ValidateScenario(action runtime.Action, preemptor queuetree.ID, victims []minruntime.Victim) (minruntime.ScenarioDecision, error) {
	d, err := c.p.validator.Validate(action, preemptor, victims, c.now)
	if err == nil {
		c.note(d.Until)
	}
	return d, err
}

// RequeueInput is the input of [Cycle.Requeue].
type RequeueInput struct {
	// Running are the running jobs; the expected-runtime nominator
	// evaluates each of them.
	Running []eligibility.Job
	// Contenders are the pending jobs that may use a requeued job's
	// resources.
	Contenders []requeue.Contender
	// Nominated holds nominations made one job at a time ([Cycle.Nominate]),
	// with their victims' data.
	Nominated []expectedruntime.Nomination
	// Nominations and Victims carry other nominators' nominations and
	// their victims' data.
	Nominations []requeue.VictimNomination
	Victims     []requeue.Victim
	// EvictionRecords holds, by job ID, the eviction-record annotation of
	// victims not in Running (under Config.EvictionBudget).
	EvictionRecords map[string]string
}

// RequeueResult is the output of [Cycle.Requeue].
type RequeueResult struct {
	// Nominated is the expected-runtime nominator's result.
	Nominated expectedruntime.Result
	// Engine is the engine's result, one outcome per nominated job. The
	// engine has applied each committed outcome to the Model; the embedder
	// evicts the job and writes its not-before annotation.
	Engine requeue.EngineResult
	// EvictionRecords holds, by job ID, the eviction-record annotation to
	// write on each committed victim under Config.EvictionBudget; nil
	// without a budget.
	EvictionRecords map[string]string
}

// Requeue runs the expected-runtime nominator over in.Running, then one
// engine pass over every nomination of in against model. The error is the
// engine's (a model that breaks its contract); bad data of one job becomes
// that job's outcome.
func (c *Cycle) Requeue(in RequeueInput, model requeue.Model) (RequeueResult, error) {
	var out RequeueResult
	c.loadRecords(&in)
	defer clear(c.p.records) // no later pass reads this call's records
	out.Nominated = c.p.nominator.Nominate(in.Running, c.now)
	c.note(out.Nominated.Wake)
	ein := requeue.EngineInput{Nominations: in.Nominations, Victims: in.Victims, Contenders: in.Contenders,
		Nominated: out.Nominated.Nominations}
	if len(in.Nominated) > 0 {
		ein.Nominated = slices.Concat(in.Nominated, out.Nominated.Nominations)
	}
	var err error
	out.Engine, err = c.p.engine.Run(c.now, ein, model)
	c.note(out.Engine.Wake)
	deferred := false
	for i := range out.Engine.Outcomes {
		o := &out.Engine.Outcomes[i]
		deferred = deferred || o.Kind == requeue.OutcomeDeferred
		if o.Kind == requeue.OutcomeCommitted && c.p.budget.Max > 0 {
			if out.EvictionRecords == nil {
				out.EvictionRecords = map[string]string{}
			}
			out.EvictionRecords[o.Job] = c.p.budget.Record(c.p.records[o.Job].value, c.now)
		}
	}
	if deferred && (out.Engine.Sets > 0 || len(out.Engine.FitWithoutEviction) > 0) {
		c.wake = c.now // a bound stopped a pass that made progress: run the next cycle at once
	}
	return out, err
}

// loadRecords fills the Policy's record table for the engine's budget
// filter from in's jobs; the filter decides on each record at the instant
// the engine passes it. O(number of records present).
func (c *Cycle) loadRecords(in *RequeueInput) {
	if c.p.budget.Max <= 0 {
		return
	}
	clear(c.p.records)
	for id, v := range in.EvictionRecords {
		c.p.records[id] = budgetRecord{value: v}
	}
	key := cmp.Or(c.p.budget.Key, evictionbudget.Annotation)
	for i := range in.Running {
		if v, ok := in.Running[i].Annotations[key]; ok {
			c.p.records[in.Running[i].ID] = budgetRecord{value: v}
		}
	}
}
