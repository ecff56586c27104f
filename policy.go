package tenure

import (
	"errors"
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
// A Policy hands out no piece: every decision goes through a [Cycle], at
// the cycle's instant. A fork that integrates tenure piece by piece skips
// Policy and builds each piece from the matching Config section
// (queuetree.New, runtime.NewResolver, minruntime.Filter,
// expectedruntime.Nominator, requeue.NewEngine); the root package's Example
// shows that path.
//
// Concurrency: the tree, resolver, filter, nominator and backoff are
// immutable; the engine and the scenario validator keep scratch state, and
// [Cycle.Requeue] holds the eviction records of its input for the engine's
// eviction-budget filter, so a Policy
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
	// records holds the eviction-record annotations of the jobs of the
	// Cycle.Requeue that is running, by ID, for the engine's budget
	// filter; Requeue fills it before its engine pass and empties it
	// before it returns. The engine is not reachable from outside the
	// Policy, so no pass ever reads another call's records.
	records map[string]budgetRecord
}

// budgetRecord is one job's eviction-record annotation.
type budgetRecord struct {
	value string
}

// budgetFilter is the composed engine's eviction-budget filter: the
// budget's decision on the victim's own record (from Cycle.Requeue's input)
// at the instant the engine passes, the cycle's. A victim without a record
// is within its budget. O(len(record)) per victim-contender pair; no
// allocation.
type budgetFilter struct{ p *Policy }

// FilterVictim implements requeue.VictimFilter.
func (f budgetFilter) FilterVictim(now time.Time, v *requeue.Victim, _ *requeue.Contender) eligibility.Decision {
	return f.p.budget.Check(f.p.records[v.ID].value, now)
}

// preemptorDelayFilter is the composed engine's preemptor-delay filter: a
// contender that has waited less than the delay since Contender.Queued may
// not cause an eviction (reason "preemptor_delay", Until = Queued + Delay;
// "queued_unknown" when Queued is zero). O(1), no allocation.
type preemptorDelayFilter struct{ delay preemptordelay.Delay }

// FilterVictim implements requeue.VictimFilter.
func (f preemptorDelayFilter) FilterVictim(now time.Time, _ *requeue.Victim, c *requeue.Contender) eligibility.Decision {
	return f.delay.Check(c.Queued, now)
}

// New validates cfg and builds a Policy. Every problem is reported at once,
// joined in one error (errors.Join): queue-tree problems (duplicates,
// unknown parents, cycles), unparsable or negative min-runtimes, unknown
// plugin arguments and methods, colliding annotation keys, and invalid engine
// or backoff settings. Cost: O(queues · log queues).
func New(cfg Config) (*Policy, error) {
	p, problems := newTolerant(cfg)
	return p, errors.Join(problems...)
}

// Tree returns the Policy's queue tree: immutable, safe to share, and the
// way to size a slice indexed by queue ID, make([]T, p.Tree().IDLimit()).
// It is the tree of p's queue list; a Policy from [Policy.UpdateQueues]
// has its own.
func (p *Policy) Tree() *queuetree.Tree { return p.tree }

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
