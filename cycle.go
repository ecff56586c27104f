package tenure

import (
	"slices"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/runtime"
)

// Cycle is one scheduling cycle of a [Policy]: one instant, read once by
// [Policy.Begin], shared by every decision made through it, and the earliest
// instant at which any of those decisions may change ([Cycle.Wake]). Every
// policy of the Config is decided through it: min-runtime
// ([Cycle.CheckVictim], [Cycle.ValidateScenario]), KEP-9876 protection
// ([Cycle.CheckAdmitted]), time-based same-priority preemption
// ([Cycle.Classify]), the preemptor-side delay ([Cycle.CheckPreemptor]),
// the eviction budget ([Cycle.CheckEvictionBudget], [Cycle.RecordEviction]),
// expected-runtime requeue ([Cycle.Requeue], or [Cycle.Nominate] one job
// at a time) and readiness requeuing
// ([Cycle.ReadinessTimeout], [Cycle.Admissible]).
//
// A Cycle belongs to the goroutine running the cycle. Use a new one for each
// cycle: its instant does not move.
type Cycle struct {
	p    *Policy
	now  time.Time
	wake time.Time
}

// Wake returns the earliest Until after [Cycle.Now] among the decisions made
// through c so far: the instant at which, with no other change, some answer
// of this cycle changes (a min-runtime or KEP-9876 protection expires, a
// time-based candidate expires, a cooldown, a backoff, a preemptor delay or
// an eviction budget's window ends, a job reaches its expected runtime), or
// [Cycle.Now] itself when the requeue engine deferred nominations (a bound
// stopped its pass, so the next cycle should come at once). An Until at or
// before Now (a backoff without delay) is an answer that already holds and
// does not count. The zero time means no decision changes by time alone. A
// scheduler may sleep until Wake instead of polling. O(1).
func (c *Cycle) Wake() time.Time { return c.wake }

// note lowers Wake to until when until is after the cycle's instant: an
// Until at or before now is an answer that already holds, which nothing
// waits for.
func (c *Cycle) note(until time.Time) {
	if until.After(c.now) {
		c.wake = eligibility.Earliest(c.wake, until)
	}
}

// CheckVictim asks the min-runtime filter whether victim may be evicted now by
// a preemptor in queue preemptor, for action (in-queue preempt or
// cross-queue reclaim). See [minruntime.Filter.Check]. O(1) or
// O(log depth); no allocation.
func (c *Cycle) CheckVictim(action runtime.Action, preemptor queuetree.ID, victim *eligibility.Job) minruntime.Decision {
	d := c.p.filter.Check(action, preemptor, victim, c.now)
	c.note(d.Until)
	return d
}

// ValidateScenario asks the elastic scenario validator whether evicting the
// given tasks keeps every still-protected elastic victim at or above its
// MinAvailable. See [minruntime.Validator.Validate].
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
	// resources (strictly higher priority by default).
	Contenders []requeue.Contender
	// Nominated holds nominations [Cycle.Nominate] made one job at a time
	// (each Allowed outcome's Nomination), or another
	// [expectedruntime.Nominator]'s, with their victims' data, as
	// [requeue.EngineInput].Nominated takes them.
	Nominated []expectedruntime.Nomination
	// Nominations and Victims carry the nominations of other nominators,
	// if any, with their victims' data. Requeue merges all of them with the
	// expected-runtime nominator's over Running.
	Nominations []requeue.VictimNomination
	Victims     []requeue.Victim
	// EvictionRecords holds, by job ID, the eviction-record annotation of
	// victims that are not in Running (under Config.EvictionBudget; the
	// annotations of Running are read directly). Ignored without a budget.
	EvictionRecords map[string]string
}

// RequeueResult is the output of [Cycle.Requeue].
type RequeueResult struct {
	// Nominated is the expected-runtime nominator's result.
	Nominated expectedruntime.Result
	// Engine is the requeue engine's result: one outcome per nominated
	// job. For each committed outcome the engine has already applied its
	// changes to the Model; the embedder evicts the job for real and writes
	// the not-before annotation (Outcome.Annotation under
	// eligibility.AnnotationRequeueNotBefore). Engine.FitWithoutEviction lists the
	// pending jobs that fit without evicting anyone (also placed in the
	// Model): they are no reason to requeue a job, and the scheduler's
	// normal allocation should place them.
	Engine requeue.EngineResult
	// EvictionRecords (with Config.EvictionBudget set) holds, by job ID,
	// for each committed outcome, the eviction-record annotation value to
	// write on the evicted job, beside the not-before one, under
	// Config.EvictionBudget's key ([evictionbudget.Budget.AnnotationKey]).
	// It is nil without a budget or without a committed outcome.
	EvictionRecords map[string]string
}

// Requeue runs the requeue half of a cycle: the expected-runtime nominator
// over in.Running, then one engine pass over its nominations (and any
// others in in) against model. Jobs still protected by their min-runtime
// are never requeued unless the Policy was built with
// Config.AllowProtectedRequeue. The error is the engine's (a model that
// breaks its contract); bad data of one job becomes that job's outcome.
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
	for i := range out.Engine.Outcomes {
		o := &out.Engine.Outcomes[i]
		switch {
		case o.Kind == requeue.OutcomeDeferred:
			c.wake = c.now // a bound stopped the pass: run the next cycle at once
		case o.Kind == requeue.OutcomeCommitted && c.p.budget.Max > 0:
			if out.EvictionRecords == nil {
				out.EvictionRecords = map[string]string{}
			}
			out.EvictionRecords[o.Job] = c.p.budget.Record(c.p.records[o.Job].value, c.now)
		}
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
	key := c.p.budget.AnnotationKey()
	for i := range in.Running {
		if v, ok := in.Running[i].Annotations[key]; ok {
			c.p.records[in.Running[i].ID] = budgetRecord{value: v}
		}
	}
}
