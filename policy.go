package tenure

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/admitprotect"
	"github.com/tenurepolicy/tenure/eligibility/evictionbudget"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/eligibility/preemptordelay"
	"github.com/tenurepolicy/tenure/eligibility/timebased"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/backoff"
	"github.com/tenurepolicy/tenure/runtime"
)

// Policy is tenure composed: one [Config] wired into a queue tree, a
// min-runtime resolver, the min-runtime victim filter, the elastic scenario
// validator, the expected-runtime nominator and the requeue engine (with the
// min-runtime filter in it, and the eviction-budget and preemptor-delay
// filters when configured), plus the requeuing strategy, time-based
// same-priority preemption, KEP-9876 protection and the clock. A scheduler
// builds one per configuration change and calls [Policy.Begin] once per
// scheduling cycle. A scheduler that reads its queues anew every session
// passes them to [Policy.UpdateQueues], which returns the same Policy when
// they did not change and otherwise rebuilds only the parts that hold the
// queues.
//
// The pieces stay available ([Policy.Tree], [Policy.Resolver], …) for code
// that needs them directly; a fork that integrates tenure piece by piece can
// skip Policy altogether and build them itself.
//
// Concurrency: the tree, resolver, filter, nominator and backoff are
// immutable (the accessors return the filter and the nominator by value);
// the engine and the scenario validator keep scratch state, so a Policy
// runs one [Cycle] at a time, on one goroutine. A Policy that
// UpdateQueues returns has its own engine and validator: it and p may
// each run a Cycle at the same time.
type Policy struct {
	// cfg is the Config New was given, without Queues and MinRuntimeArgs
	// (held as tree, resolver and base), with its own copy of
	// Engine.Filters; base is the resolver's Config without queue
	// settings: the defaults and the method.
	cfg  Config
	base runtime.Config
	// given holds, by ID, 1 + the index in givenStrings of the
	// min-runtime strings of the queue list the tree and resolver were
	// built from without a problem (0: both empty; nil after a repair):
	// UpdateQueues' check for an unchanged list.
	given        []int32
	givenStrings []queueStrings
	givenCount   int // the number of queues in that list
	tree         *queuetree.Tree
	resolver     *runtime.Resolver
	filter       minruntime.Filter
	validator    minruntime.Validator
	nominator    expectedruntime.Nominator
	engine       *requeue.Engine
	requeuing    backoff.Strategy
	clock        clock.Clock

	preemption timebased.Config
	protection admitprotect.Protection
	delay      preemptordelay.Delay
	budget     evictionbudget.Budget
	// records holds the eviction-record annotations of the current
	// Cycle.Requeue's jobs, by ID, with the budget's decision on each, for
	// the engine's budget filter.
	records map[string]budgetRecord
}

// budgetRecord is one job's eviction-record annotation and the budget's
// decision on it at the cycle's instant.
type budgetRecord struct {
	value    string
	decision eligibility.Decision
}

// budgetFilter is the composed engine's eviction-budget filter: the
// decision precomputed for each victim of the pass by Cycle.Requeue, so that
// each victim-contender pair costs one map lookup. A victim without a
// record is within its budget.
type budgetFilter struct{ p *Policy }

// FilterVictim implements requeue.VictimFilter.
func (f budgetFilter) FilterVictim(_ time.Time, v *requeue.Victim, _ *requeue.Contender) eligibility.Decision {
	if r, ok := f.p.records[v.ID]; ok {
		return r.decision
	}
	return eligibility.Decision{Allowed: true, Reason: evictionbudget.ReasonWithinBudget}
}

// New validates cfg and builds a Policy. Every problem is reported at once,
// joined in one error (errors.Join): queue-tree problems (duplicates,
// unknown parents, cycles), unparsable or negative min-runtimes, unknown
// plugin arguments and methods, colliding annotation keys, and invalid engine
// or backoff settings. Cost: O(queues · log queues).
func New(cfg Config) (*Policy, error) {
	return cfg.build()
}

// Tree returns the queue tree.
func (p *Policy) Tree() *queuetree.Tree { return p.tree }

// Resolver returns the min-runtime resolver.
func (p *Policy) Resolver() *runtime.Resolver { return p.resolver }

// Filter returns a copy of the min-runtime victim filter (the engine's own
// cannot be changed through it).
func (p *Policy) Filter() minruntime.Filter { return p.filter }

// Nominator returns a copy of the expected-runtime nominator.
func (p *Policy) Nominator() expectedruntime.Nominator { return p.nominator }

// Engine returns the requeue engine.
func (p *Policy) Engine() *requeue.Engine { return p.engine }

// Backoff returns the readiness-timeout backoff configuration
// (Config.Requeuing.Backoff).
func (p *Policy) Backoff() backoff.Config { return p.requeuing.Backoff }

// Requeuing returns Kueue's readiness requeuing strategy: the backoff and,
// through its QueueOrder method, the order of pending jobs.
func (p *Policy) Requeuing() backoff.Strategy { return p.requeuing }

// Preemption returns the within-queue preemption configuration (KEP-8522).
func (p *Policy) Preemption() timebased.Config { return p.preemption }

// Protection returns the KEP-9876 preemption protection.
func (p *Policy) Protection() admitprotect.Protection { return p.protection }

// PreemptorDelay returns the preemptor-side delay.
func (p *Policy) PreemptorDelay() preemptordelay.Delay { return p.delay }

// EvictionBudget returns the per-job eviction budget.
func (p *Policy) EvictionBudget() evictionbudget.Budget { return p.budget }

// QueueID returns the ID of the queue named name, or an error naming it
// that matches [queuetree.ErrUnknownQueue] when the tree has no such
// queue. Use it to
// fill [eligibility.Job.Queue], [requeue.Victim.Queue] and
// [requeue.Contender.Queue]. On an error it returns queuetree.None, the
// zero ID, as a Queue field never set holds: the min-runtime decisions
// deny such a job (queue_unset) rather than resolve it to any queue's
// protection, unless Config.FailOpenUnknownQueues is set.
//
// An ID belongs to p's tree. IDs are a preorder with siblings in name
// order, so a Policy
// that [Policy.UpdateQueues] returns for a changed list may give the same
// ID to another queue: look the IDs up again in every Policy other than
// the one that issued them (an ID kept from another tree is still valid,
// so nothing fails closed on it). O(1): one hash lookup.
func (p *Policy) QueueID(name string) (queuetree.ID, error) {
	if id, ok := p.tree.Lookup(name); ok {
		return id, nil
	}
	return queuetree.None, fmt.Errorf("tenure: %w %q", queuetree.ErrUnknownQueue, name)
}

// Begin starts a scheduling cycle: it reads the clock once, and every
// decision made through the returned [Cycle] sees that instant.
func (p *Policy) Begin() *Cycle { return p.BeginAt(p.clock.Now()) }

// BeginAt starts a cycle at now without reading the clock (for replays
// and simulations that own time).
func (p *Policy) BeginAt(now time.Time) *Cycle { return &Cycle{p: p, now: now} }
