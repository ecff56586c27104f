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
	"github.com/tenurepolicy/tenure/requeue/reserve"
	"github.com/tenurepolicy/tenure/runtime"
)

// Policy is tenure composed: one [Config] wired into its pieces. A
// scheduler builds one per configuration change, updates it per session
// ([Policy.UpdateQueues]) and begins one [Cycle] per scheduling cycle.
//
// Concurrency: a Policy runs one Cycle at a time (its engine and validator
// keep scratch state); a Policy that UpdateQueues returns has its own and
// may run a Cycle beside p's.
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
	planner      *reserve.Planner // Config.Reservation's; carried over by UpdateQueues
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
// contender within its delay (its own annotation, else the default,
// counted from the later of Contender.Queued and Contender.LastEvicted)
// may not cause an eviction ([preemptordelay.Delay.Check]). O(1) but the
// parse of an own delay; no allocation.
type preemptorDelayFilter struct{ delay preemptordelay.Delay }

// FilterVictim implements requeue.VictimFilter.
func (f preemptorDelayFilter) FilterVictim(now time.Time, _ *requeue.Victim, c *requeue.Contender) eligibility.Decision {
	return f.delay.Check(c.Queued, c.LastEvicted, c.Annotations, now)
}

// New validates cfg and builds a Policy, reporting every problem at once.
// When the only problems are in the queues, New still returns a Policy,
// built from the queues repaired as queuetree.New and
// runtime.NewResolver repair them (an unparsable min-runtime string is
// ignored, so that queue inherits: more protective than KAI-Scheduler's
// reading of a negative value), for a scheduler that must keep running;
// a strict caller stops on the error. O(n log n) for n queues.
func New(cfg Config) (*Policy, error) {
	if p, err := cfg.build(); err == nil {
		return p, nil
	}
	p, problems := newTolerant(cfg) // the problems, as repaired where they were
	return p, errors.Join(problems...)
}

// Tree returns the Policy's immutable queue tree, the way to size a slice
// indexed by queue ID: make([]T, p.Tree().IDLimit()).
func (p *Policy) Tree() *queuetree.Tree { return p.tree }

// QueueID returns the ID of the queue named name, to fill the Queue field
// of a Job, Victim or Contender; for an unknown name, queuetree.None and an
// error matching [queuetree.ErrUnknownQueue], so that the job is denied
// rather than resolved to some queue. An ID belongs to p's tree: look the
// IDs up again in a Policy UpdateQueues returns. O(1).
func (p *Policy) QueueID(name string) (queuetree.ID, error) {
	if id, ok := p.tree.Lookup(name); ok {
		return id, nil
	}
	return queuetree.None, fmt.Errorf("tenure: %w %q", queuetree.ErrUnknownQueue, name)
}

// Begin starts a scheduling cycle at one reading of Config.Clock.
func (p *Policy) Begin() *Cycle { return p.BeginAt(p.clock.Now()) }

// BeginAt starts a scheduling cycle at now.
func (p *Policy) BeginAt(now time.Time) *Cycle { return &Cycle{p: p, now: now} }
