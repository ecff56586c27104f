package tenure

import (
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"slices"
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

// Config is the whole configuration of a [Policy], a plain value that [New]
// validates at once. It reads from a file ([Config.UnmarshalJSON]); the
// callbacks (Clock, Observer, Logger and the engine's) are set in code,
// before or after decoding.
//
// The zero Config is valid and safe: no queues (a job at queuetree.Root
// gets the defaults; one whose queue is unset or unknown is denied),
// min-runtime defaults of 0, KAI's annotation keys, an engine that applies
// the min-runtime filter, Kueue's default requeuing, no other policy, and
// the wall clock.
type Config struct {
	// Queues is the queue hierarchy, in any order, with each queue's
	// KAI-Scheduler min-runtime fields (string forms; "" means unset, so the
	// queue inherits from its parent).
	Queues []Queue

	// MinRuntimeArgs are KAI-Scheduler's min-runtime plugin arguments, as
	// runtime.ParseConfig reads them; unknown keys are errors.
	MinRuntimeArgs map[string]string

	// AnnotationKeys names the expected-runtime annotations; zero means
	// KAI-Scheduler's.
	AnnotationKeys expectedruntime.Keys
	// NominatorName is the nominator's name in events and outcomes; ""
	// means "expectedruntime".
	NominatorName string

	// Engine configures the requeue engine. Its filters run after the
	// min-runtime filter (unless AllowProtectedRequeue) and the
	// eviction-budget and preemptor-delay filters when configured;
	// Engine.Observer, when nil, is Observer.
	Engine requeue.EngineConfig
	// AllowProtectedRequeue leaves the min-runtime filter out of the
	// engine, which may then requeue protected jobs.
	AllowProtectedRequeue bool
	// FailOpenUnknownQueues opts out of failing closed. By default a job,
	// victim, reclaimer or contender whose queue is unset (queuetree.None)
	// or not of the Policy's tree is denied by every min-runtime decision
	// (reason queue_unset or unknown_queue). Set, such a queue resolves to
	// the node-pool defaults; under the lca method a reclaimer's unknown
	// queue gives every victim the reclaim default, as KAI-Scheduler's
	// plugin does when its resolver fails.
	FailOpenUnknownQueues bool

	// Requeuing is Kueue's readiness requeuing strategy (KEP-1282), zero
	// for Kueue's defaults. New validates it; the embedder applies it with
	// backoff.State.Timeout (admitting at State.RequeueAt) and
	// backoff.QueueOrder.
	Requeuing backoff.Strategy

	// Preemption is Kueue's KEP-8522 within-queue preemption
	// ([Cycle.Classify]); zero never preempts within a queue.
	Preemption timebased.Config
	// Protection is Kueue's KEP-9876 protection against cross-queue
	// preemption ([Cycle.CheckAdmitted]); zero protects nothing.
	Protection admitprotect.Protection
	// PreemptorDelay is the preemptor-side delay ([Cycle.CheckPreemptor]
	// and the engine): KAI-Scheduler's per-job preemption delay, read from
	// each contender's annotation, with Delay the default for contenders
	// without one; zero delays only contenders with their own.
	PreemptorDelay preemptordelay.Delay
	// EvictionBudget limits each job's evictions per window
	// ([Cycle.CheckEvictionBudget] and the engine); zero has no budget.
	EvictionBudget evictionbudget.Budget
	// Reservation holds nodes for pending jobs that have waited long
	// ([Cycle.Reserve], [Cycle.Backfill]); its zero Max holds none. Its
	// Engine holds only CanContend (nil: the holder may evict jobs of any
	// priority on its nodes) and ContendClass: the requeue pass at a planned start runs
	// under Engine, with its filters (min-runtime protection first, unless
	// AllowProtectedRequeue), limits and MaxLostWork. Its Observer, when
	// nil, is Observer.
	Reservation reserve.Config

	// Clock is read once per cycle by [Policy.Begin]; nil is the wall clock.
	Clock clock.Clock `json:"-"`
	// Observer, when set, receives the nominator's and the engine's
	// decisions as [eligibility.Event]s.
	Observer eligibility.Observer `json:"-"`
	// Logger, when set, receives the nominator's log lines.
	Logger *slog.Logger `json:"-"`
}

// Queue is one queue of [Config.Queues] with its KAI-Scheduler
// min-runtime fields ("" unset: inherit; "0s" stops inheritance), under
// KAI's keys in a file.
type Queue struct {
	Name              string `json:"name"`
	Parent            string `json:"parentQueue,omitempty"`
	PreemptMinRuntime string `json:"preemptMinRuntime,omitempty"` // e.g. "20m"
	ReclaimMinRuntime string `json:"reclaimMinRuntime,omitempty"` // e.g. "1h"
}

// ConfigError is one problem of a [Config]. [New], [Policy.UpdateQueues]
// and [Config.UnmarshalJSON] report every problem, one *ConfigError each,
// joined with errors.Join. New and UpdateQueues may return a usable Policy
// beside the error when every problem is in the queues (see [New]).
//
// Key is where the problem is, as the file spells it: "engine.maxChecks",
// "queues[3].preemptMinRuntime", "preemptionProtection.fairSharing.minAdmitDuration"
// (inside a Kueue block too), the same whether the Config was built in
// code or read; a field the file does not hold by its Go name in lower
// camel case under its part ("engine.filters[2]", "requeuingStrategy.jitter");
// the whole document by "". Err's message starts with the name of the
// package that found it; errors.As reaches through it (to a
// *queuetree.Problem, say).
type ConfigError struct {
	Key string
	Err error
}

// Error returns "tenure: config.<Key>: " and Err's message.
func (e *ConfigError) Error() string {
	if e.Key == "" {
		return "tenure: config: " + e.Err.Error()
	}
	return "tenure: config." + e.Key + ": " + e.Err.Error()
}

// Unwrap returns Err.
func (e *ConfigError) Unwrap() error { return e.Err }

// keyed is the error of a sub-package's check of one of its fields: Key
// names the field, relative to the part that was checked, in the file's
// spelling ("maxChecks", "[3].preemptMinRuntime").
type keyed interface{ Key() string }

// configErrors returns each problem of err (the errors errors.Join joined,
// at any depth; none for nil) as a *ConfigError of the file part part.
func configErrors(part string, err error) []error {
	var out []error
	for _, e := range unjoin(err) {
		out = append(out, configError(part, e))
	}
	return out
}

// configError returns e as a *ConfigError of the file part part: e itself
// when it is one; else keyed by part and, for a queuetree.Problem, its
// entry and field, or for a sub-package's error, its Key.
func configError(part string, e error) error {
	if ce, ok := e.(*ConfigError); ok {
		return ce
	}
	key := part
	var p *queuetree.Problem
	var k keyed
	switch {
	case errors.As(e, &p):
		field := "parentQueue" // unknown_parent, cycle
		if p.Kind == "empty_name" || p.Kind == "duplicate_name" {
			field = "name"
		}
		key = fmt.Sprintf("%s[%d].%s", part, p.Index, field)
	case errors.As(e, &k):
		key = joinKey(part, k.Key())
	}
	return &ConfigError{Key: key, Err: e}
}

// queueErrors is configErrors of "queues" for a list of problems, such as
// the tolerant paths return; nil for none.
func queueErrors(problems []error) []error {
	var out []error
	for _, e := range problems {
		out = append(out, configErrors("queues", e)...)
	}
	return out
}

// joinKey returns the key sub inside the part whose key is part.
func joinKey(part, sub string) string {
	switch {
	case sub == "":
		return part
	case part == "", sub[0] == '[':
		return part + sub
	}
	return part + "." + sub
}

// build validates c and builds the pieces of a Policy, collecting every
// problem, one *ConfigError each, before returning.
func (c Config) build() (*Policy, error) {
	tree, resolver, errs := c.buildQueues()
	for _, part := range []struct {
		key string
		err error
	}{
		{"annotationKeys", (&expectedruntime.Nominator{Keys: c.AnnotationKeys}).Validate()}, // the keys are its only setting here
		{"engine", c.Engine.Validate()},
		{"requeuingStrategy", c.Requeuing.Validate()},
		{"preemption", c.Preemption.Validate()},
		{"preemptionProtection", c.Protection.Validate()},
		{"preemptorDelay", c.PreemptorDelay.Validate()},
		{"evictionBudget", c.EvictionBudget.Validate()},
		{"reservation", c.checkReservation()},
	} {
		errs = append(errs, configErrors(part.key, part.err)...)
	}
	errs = append(errs, c.checkNames()...)
	errs = append(errs, c.checkBudgetKey()...)
	errs = append(errs, c.checkDelayKey()...)
	errs = append(errs, c.checkCallbacks()...)
	errs = append(errs, c.checkReservationEngine()...)
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	base, _ := runtime.ParseConfig(c.MinRuntimeArgs, nil) // accepted by buildQueues above
	p := &Policy{cfg: c, base: base, tree: tree, resolver: resolver, requeuing: c.Requeuing, clock: c.Clock,
		preemption: c.Preemption, protection: c.Protection, delay: c.PreemptorDelay, budget: c.EvictionBudget}
	p.cfg.Queues, p.cfg.MinRuntimeArgs = nil, nil // held as tree, resolver and base
	p.cfg.Engine.Filters = slices.Clone(c.Engine.Filters)
	if p.clock == nil {
		p.clock = clock.Func(time.Now)
	}
	p.nominator = expectedruntime.Nominator{Name: c.NominatorName, Keys: c.AnnotationKeys, Observer: c.Observer, Logger: c.Logger}
	if err := p.wire(); err != nil { // unreachable: Validate accepted the engine's settings above
		return nil, errors.Join(configErrors("engine", err)...)
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
	p.filter = minruntime.Filter{Resolver: p.resolver, FailOpen: failOpen}
	p.validator = minruntime.Validator{Resolver: p.resolver, FailOpen: failOpen}
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
	filters = append(filters, preemptorDelayFilter{p.delay}) // a contender may carry its own delay

	ecfg.Filters = append(filters, p.cfg.Engine.Filters...)
	var err error
	if p.engine, err = requeue.NewEngine(ecfg); err != nil {
		return err
	}
	rcfg := p.cfg.reservationConfig(ecfg)
	if rcfg.Protection == nil {
		rcfg.Protection = p.protectedUntil
	}
	if p.planner != nil { // UpdateQueues: the reservations carry over
		p.planner, err = p.planner.Renew(rcfg)
	} else {
		p.planner, err = reserve.New(rcfg)
	}
	return err
}

// buildQueues builds the tree and the resolver, returning every problem
// of the queues and the plugin arguments.
func (c Config) buildQueues() (*queuetree.Tree, *runtime.Resolver, []error) {
	queues, fields := queueInput(c.Queues) // same indices as c.Queues in every message
	tree, err := queuetree.New(queues)
	errs := configErrors("queues", err)
	base, aerr := runtime.ParseConfig(c.MinRuntimeArgs, nil)
	errs = append(errs, configErrors("minRuntimeArgs", aerr)...)
	rcfg, qerr := parseQueues(base, fields)
	errs = append(errs, configErrors("queues", qerr)...)
	var resolver *runtime.Resolver
	if err == nil && aerr == nil && qerr == nil {
		resolver, err = runtime.NewResolver(tree, rcfg)
		errs = append(errs, configErrors("queues", err)...)
	}
	return tree, resolver, errs
}

// checkNames reports source names that are not metric labels or collide;
// a collision is keyed by the engine's name when it is set, else by the
// nominator's.
func (c Config) checkNames() []error {
	var errs []error
	nominator := cmp.Or(c.NominatorName, "expectedruntime") // the nominator's default Name
	engine := cmp.Or(c.Engine.Name, new(requeue.Engine).Config().Name)
	for _, n := range []struct{ key, field, name string }{{"nominatorName", "NominatorName", nominator}, {"engine.name", "Engine.Name", engine}} {
		if !isLabel(n.name) {
			errs = append(errs, &ConfigError{n.key, fmt.Errorf("%s %q is not a metric label (lower-case letters, digits and _, starting with a letter)", n.field, n.name)})
		}
	}
	if nominator == engine {
		key := "nominatorName"
		if c.Engine.Name != "" {
			key = "engine.name"
		}
		errs = append(errs, &ConfigError{key, fmt.Errorf("NominatorName and Engine.Name are both %q: their events would be counted together", nominator)})
	}
	return errs
}

// checkBudgetKey reports an eviction budget whose record key is one of the
// nominator's annotation keys (KAI's where AnnotationKeys leaves them
// unset): RequeueResult.EvictionRecords would tell the embedder to
// overwrite that annotation with the record. A budget that is off and
// names no key (Max and Key zero) writes nothing and is not checked.
func (c Config) checkBudgetKey() []error {
	b := c.EvictionBudget
	if b.Max == 0 && b.Key == "" {
		return nil
	}
	k := c.AnnotationKeys
	key := cmp.Or(b.Key, evictionbudget.Annotation)
	for _, a := range []struct{ field, key string }{
		{"expectedRuntime", cmp.Or(k.ExpectedRuntime, expectedruntime.AnnotationExpectedRuntime)},
		{"requeueDelay", cmp.Or(k.RequeueDelay, expectedruntime.AnnotationRequeueDelay)},
		{"requeueNotBefore", cmp.Or(k.RequeueNotBefore, eligibility.AnnotationRequeueNotBefore)},
		{"lastCheckpoint", cmp.Or(k.LastCheckpoint, expectedruntime.AnnotationLastCheckpoint)},
	} {
		if key == a.key {
			return []error{&ConfigError{"evictionBudget.annotationKey", fmt.Errorf(
				"EvictionBudget.Key %q is the nominator's annotationKeys.%s: the eviction records would overwrite that annotation", key, a.field)}}
		}
	}
	return nil
}

// checkDelayKey reports a preemptor delay key (KAI-Scheduler's
// kai.scheduler/preemption-delay when unset) that is one of the
// nominator's annotation keys or the eviction budget's: one annotation
// would then mean two things.
func (c Config) checkDelayKey() []error {
	k := c.AnnotationKeys
	key := cmp.Or(c.PreemptorDelay.Key, "kai.scheduler/preemption-delay")
	for _, a := range []struct{ field, key string }{
		{"annotationKeys.expectedRuntime", cmp.Or(k.ExpectedRuntime, expectedruntime.AnnotationExpectedRuntime)},
		{"annotationKeys.requeueDelay", cmp.Or(k.RequeueDelay, expectedruntime.AnnotationRequeueDelay)},
		{"annotationKeys.requeueNotBefore", cmp.Or(k.RequeueNotBefore, eligibility.AnnotationRequeueNotBefore)},
		{"annotationKeys.lastCheckpoint", cmp.Or(k.LastCheckpoint, expectedruntime.AnnotationLastCheckpoint)},
		{"evictionBudget.annotationKey", cmp.Or(c.EvictionBudget.Key, evictionbudget.Annotation)},
	} {
		if key == a.key {
			return []error{&ConfigError{"annotationKeys.preemptionDelay", fmt.Errorf(
				"PreemptorDelay.Key %q is also %s: one annotation would mean two things", key, a.field)}}
		}
	}
	return nil
}

// isLabel reports whether s is a metric label as tenure's reasons are: 1
// to 64 characters, each a lower-case ASCII letter, a digit or '_',
// starting with a letter.
func isLabel(s string) bool {
	if len(s) == 0 || len(s) > 64 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}
