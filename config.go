package tenure

import (
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"slices"

	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/backoff"
	"github.com/tenurepolicy/tenure/runtime"
)

// Config is the whole configuration of a [Policy]: the queue hierarchy with
// each queue's min-runtime fields, KAI-Scheduler's min-runtime plugin
// arguments, the expected-runtime annotation keys, the requeue engine's
// settings, Kueue's readiness requeuing strategy (KEP-1282), time-based
// same-priority preemption (KEP-8522), cross-queue preemption protection
// (KEP-9876), the preemptor-side delay and the per-job eviction budget. It
// is a plain value; [New] validates all of it at once.
//
// Config reads from and writes to a file: it implements json.Marshaler and
// json.Unmarshaler (see [Config.UnmarshalJSON] for the format, every part
// that mirrors an upstream object in that object's spelling). The callbacks
// (Clock, Observer, Logger, and the engine's VictimCost, Filters,
// VictimOrder, CanContend and Observer) are not part of the file; set them
// in code, before or after decoding (decoding keeps them).
//
// The zero Config is valid and safe: no queues (a job placed at
// queuetree.Root resolves to the defaults; one whose Queue is unset or
// unknown is denied, fail closed: FailOpenUnknownQueues is off),
// min-runtime defaults of 0, KAI's annotation keys, an engine that applies
// the min-runtime filter to every victim with the engine's default bounds,
// Kueue's default requeuing strategy, no within-queue preemption, no
// KEP-9876 protection, no preemptor delay, no eviction budget, and the wall
// clock.
type Config struct {
	// Queues is the queue hierarchy, in any order, with each queue's
	// KAI-Scheduler min-runtime fields (string forms; "" means unset, so the
	// queue inherits from its parent).
	Queues []Queue

	// MinRuntimeArgs are KAI-Scheduler's min-runtime plugin arguments:
	// "defaultPreemptMinRuntime", "defaultReclaimMinRuntime" (durations,
	// default 0) and "reclaimResolveMethod" ("lca", the default, or
	// "queue"). Unknown keys are errors. See runtime.ParseConfig.
	MinRuntimeArgs map[string]string

	// AnnotationKeys names the expected-runtime annotations the nominator
	// reads; the zero value means KAI-Scheduler's keys
	// (kai.scheduler/expected-runtime, …).
	AnnotationKeys eligibility.AnnotationKeys
	// NominatorName is the nominator's plugin name, the Source of its
	// events and the name recorded in the engine's outcomes; ""
	// means "expectedruntime".
	NominatorName string

	// Engine configures the requeue engine. Unless AllowProtectedRequeue is
	// set, New puts the min-runtime victim filter first in Engine.Filters,
	// so that the engine never requeues a job still protected by its
	// min-runtime; then the eviction-budget and preemptor-delay filters
	// when those are configured; filters given here run after them.
	// Engine.Observer, when nil, is Observer.
	Engine requeue.EngineConfig
	// AllowProtectedRequeue leaves the min-runtime filter out of the
	// engine: the requeue engine may then evict jobs that are still
	// protected. Off by default; set it only when Engine.Filters already
	// holds an equivalent filter.
	AllowProtectedRequeue bool
	// FailOpenUnknownQueues is the explicit opt-out of failing closed. By
	// default (false) a job, victim, reclaimer or contender whose queue is
	// unset (queuetree.None, the zero ID) or an ID the Policy's tree did
	// not issue (out of its range) cannot have its protection known, so the
	// min-runtime decisions deny it: [Cycle.CheckVictim] denies the victim
	// (reason queue_unset or unknown_queue, no Until),
	// [Cycle.ValidateScenario] rejects a scenario taking its active tasks,
	// and the requeue engine's min-runtime filter never evicts it in
	// [Cycle.Requeue]. Set to true, each of these resolves such a queue to
	// the node-pool defaults (MinRuntimeArgs' defaultPreemptMinRuntime and
	// defaultReclaimMinRuntime, 0 unless set) instead: the job gets the
	// defaults' protection and no more. That reaches further under the lca
	// reclaim method, whose answer depends on the reclaimer's queue too: a
	// reclaimer whose queue is unset or unknown makes every victim, in a
	// known queue or not, resolve to the reclaim default, as KAI-Scheduler's
	// plugin does when its resolver fails. It sets the FailOpen field of
	// the Policy's eligibility.MinRuntimeFilter (the engine's filter too)
	// and eligibility.ScenarioValidator. An in-range ID kept from another
	// tree is not detected either way (see [Policy.QueueID]).
	FailOpenUnknownQueues bool

	// Requeuing is Kueue's readiness requeuing strategy (KEP-1282,
	// waitForPodsReady.requeuingStrategy): the requeue backoff and the
	// queue-order timestamp. The zero value is Kueue's defaults.
	Requeuing backoff.Strategy

	// Preemption is time-based same-priority preemption within a queue
	// (Kueue KEP-8522, withinClusterQueue); the zero value never preempts
	// within a queue. [Cycle.Classify] applies it.
	Preemption eligibility.PreemptionConfig
	// Protection is Kueue's KEP-9876 preemption protection against
	// cross-queue preemption; the zero value protects nothing.
	// [Cycle.CheckAdmitted] applies it.
	Protection eligibility.AdmitProtection
	// PreemptorDelay is the preemptor-side delay (YuniKorn's
	// preemption.delay): a pending job may cause evictions only once it has
	// waited this long. [Cycle.CheckPreemptor] applies it, and so does the
	// requeue engine. The zero value has no delay.
	PreemptorDelay eligibility.PreemptorDelay
	// EvictionBudget limits each job to Max evictions per Window, read from
	// the eviction-record annotation. [Cycle.CheckEvictionBudget] applies
	// it, and so does the requeue engine, whose committed evictions come
	// with the new annotation values ([RequeueResult].EvictionRecords). The
	// zero value has no budget.
	EvictionBudget eligibility.EvictionBudget

	// Clock is read once per cycle, by [Policy.Begin]; nil means the wall
	// clock ([clock.Real]).
	Clock clock.Clock `json:"-"`
	// Observer, when set, receives the nominator's and the engine's
	// decisions as [eligibility.Event]s ([eligibility.Counter] counts them).
	Observer eligibility.Observer `json:"-"`
	// Logger, when set, receives the nominator's log lines.
	Logger *slog.Logger `json:"-"`
}

// Queue is one queue of [Config.Queues]: its name, its parent's name (""
// for a top-level queue) and its KAI-Scheduler min-runtime fields in string
// form ("" means unset; "0s" stops inheritance: instantly evictable). In a
// file its keys are KAI-Scheduler's: name, parentQueue, preemptMinRuntime,
// reclaimMinRuntime.
type Queue struct {
	Name              string `json:"name"`
	Parent            string `json:"parentQueue,omitempty"`
	PreemptMinRuntime string `json:"preemptMinRuntime,omitempty"` // e.g. "20m"
	ReclaimMinRuntime string `json:"reclaimMinRuntime,omitempty"` // e.g. "1h"
}

// build validates c and builds the pieces of a Policy, collecting every
// problem before returning.
func (c Config) build() (*Policy, error) {
	tree, resolver, errs := c.buildQueues()
	errs = append(errs, c.AnnotationKeys.Validate(), c.Engine.Validate(), c.Requeuing.Validate(),
		c.Preemption.Validate(), c.Protection.Validate(), c.PreemptorDelay.Validate(), c.EvictionBudget.Validate())
	errs = append(errs, c.checkNames()...)
	errs = append(errs, c.checkCallbacks()...)
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	base, _ := runtime.ParseConfig(c.MinRuntimeArgs, nil) // accepted by buildQueues above
	p := &Policy{cfg: c, base: base, tree: tree, resolver: resolver, requeuing: c.Requeuing, clock: c.Clock,
		preemption: c.Preemption, protection: c.Protection, delay: c.PreemptorDelay, budget: c.EvictionBudget}
	p.cfg.Queues, p.cfg.MinRuntimeArgs = nil, nil // held as tree, resolver and base
	p.cfg.Engine.Filters = slices.Clone(c.Engine.Filters)
	if p.clock == nil {
		p.clock = clock.Real{}
	}
	p.nominator = eligibility.Nominator{Name: c.NominatorName, Keys: c.AnnotationKeys, Observer: c.Observer, Logger: c.Logger}
	if err := p.wire(); err != nil { // unreachable: Validate accepted the engine's settings above
		return nil, err
	}
	p.recordQueues(c.Queues)
	return p, nil
}

// wire builds the parts of p that hold its tree or resolver: the
// min-runtime filter, the scenario validator, and the requeue engine whose
// filters point at p (the min-runtime filter, the eviction-budget filter
// and its record table). O(len(Engine.Filters)).
func (p *Policy) wire() error {
	failOpen := p.cfg.FailOpenUnknownQueues
	p.filter = eligibility.MinRuntimeFilter{Resolver: p.resolver, FailOpen: failOpen}
	p.validator = eligibility.ScenarioValidator{Resolver: p.resolver, FailOpen: failOpen}
	ecfg := p.cfg.Engine
	if ecfg.Observer == nil {
		ecfg.Observer = p.cfg.Observer
	}
	var filters []requeue.VictimFilter
	if !p.cfg.AllowProtectedRequeue {
		filters = append(filters, requeue.VictimMinRuntimeFilter{Filter: &p.filter})
	}
	p.records = nil
	if p.budget.Max > 0 {
		p.records = map[string]budgetRecord{}
		filters = append(filters, budgetFilter{p})
	}
	if p.delay.Delay > 0 {
		filters = append(filters, preemptorDelayFilter{p.delay})
	}
	ecfg.Filters = append(filters, p.cfg.Engine.Filters...)
	var err error
	p.engine, err = requeue.NewEngine(ecfg)
	return err
}

// buildQueues builds the tree and the resolver, returning every problem.
func (c Config) buildQueues() (*queuetree.Tree, *runtime.Resolver, []error) {
	var errs []error
	queues, fields := queueInput(c.Queues) // same indices as c.Queues in every message
	tree, err := queuetree.New(queues)
	errs = append(errs, err)
	rcfg, err := runtime.ParseConfig(c.MinRuntimeArgs, fields)
	errs = append(errs, err)
	var resolver *runtime.Resolver
	if tree != nil && err == nil {
		resolver, err = runtime.NewResolver(tree, rcfg)
		errs = append(errs, err)
	}
	return tree, resolver, errs
}

// checkNames reports source names that are not metric labels or collide.
func (c Config) checkNames() []error {
	var errs []error
	nominator := cmp.Or(c.NominatorName, eligibility.NominatorExpectedRuntime)
	engine := cmp.Or(c.Engine.Name, new(requeue.Engine).Config().Name)
	for _, n := range []struct{ field, name string }{{"NominatorName", nominator}, {"Engine.Name", engine}} {
		if !eligibility.Reason(n.name).Valid() {
			errs = append(errs, fmt.Errorf("tenure: %s %q is not a metric label (lower-case letters, digits and _, starting with a letter)", n.field, n.name))
		}
	}
	if nominator == engine {
		errs = append(errs, fmt.Errorf("tenure: NominatorName and Engine.Name are both %q: their events would be counted together", nominator))
	}
	return errs
}
