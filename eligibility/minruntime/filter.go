package minruntime

import (
	"time"

	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// Filter is the per-pair min-runtime victim filter (KAI-Scheduler's
// min-runtime plugin's preemptFilterFn/reclaimFilterFn, the design's
// IsPreemptible): may this victim be evicted now by a preemptor in that
// queue for that action? It runs after the scheduler's own victim filters
// and never looks at [eligibility.Job.Preemptible] or priorities.
//
// It fails closed (see the package doc): an unset or unknown queue, a
// missing Resolver (the zero value, a nil *Filter) and an invalid action
// are denied with no Until, unless FailOpen excuses the queue. A Filter is
// immutable and safe for concurrent use.
type Filter struct {
	// Resolver resolves the min-runtime for an action and pair of queues.
	Resolver *runtime.Resolver
	// FailOpen, when true, resolves an unset or unknown queue to the
	// node-pool defaults (the resolver's answer for an ID it did not
	// issue) instead of denying. Off by default; set it only when a job
	// without a queue should get the defaults' protection and no more.
	// Under the lca method a reclaimer's unset or unknown queue then makes
	// any victim, in a known queue or not, resolve to the reclaim default.
	// It does not let an invalid action through (ReasonInvalidAction).
	FailOpen bool
}

// Check decides whether victim may be evicted at now by a preemptor whose
// job runs in queue preemptor, for action (runtime.ActionPreempt: same queue;
// runtime.ActionReclaim: across queues). In order:
//
//  0. Any other action (an out-of-range runtime.Action) is denied with
//     ReasonInvalidAction and no Until, even with FailOpen set and
//     whatever the victim: no min-runtime applies to it, and a programming
//     error must not read as "no protection". Then, unless FailOpen is
//     set: a missing Resolver is denied with ReasonNoResolver, an unset or
//     unknown queue with ReasonQueueUnset or ReasonUnknownQueue, all with
//     no Until (see the type's doc); the Resolution is then the zero one
//     for the action.
//  1. The duration d is resolved with the Resolver (as
//     Resolver.Resolve(action, preemptor, victim.Queue)) and recorded in
//     the decision.
//  2. d <= 0: allowed, ReasonNoMinRuntime ("0s means instantly").
//  3. No start time: allowed, ReasonMissingStart (not protected, as KAI).
//  4. now >= start + d: allowed, ReasonNotProtected: evictable at exactly
//     start + d.
//  5. Still protected but elastic (some subgroup has MinAvailable < Active): allowed with
//     ReasonElasticDeferred; whether it may lose these tasks is the
//     [Validator]'s decision (KAI-Scheduler's min-runtime design, phase 4).
//  6. Otherwise denied with Until = start + d, reason ReasonClockSkew when
//     now < start (the start lies in the future; the protection is kept
//     conservatively) else ReasonMinRuntimeProtected.
//
// start + d saturates at the last instant a time.Time can hold (Go's
// Time.Add would return an earlier instant there, ending the protection
// before it began); at that instant itself every protection has run out.
//
// Every elastic victim is therefore allowed, as KAI-Scheduler's min-runtime design specifies; the
// reason says elastic_deferred only when the validator has something to
// check (a protected one), and the plain reason otherwise.
//
// Cost: one resolver query, plus, for a victim still protected only, a
// scan of its subgroups (loaded through [eligibility.Job.SubgroupsFunc] when
// Subgroups is nil, so an embedder may supply them lazily); no
// allocation of its own. A nil victim is treated as a [eligibility.Job] with no
// queue (so it is denied with ReasonQueueUnset), no start and no
// subgroups.
func (f *Filter) Check(action runtime.Action, preemptor queuetree.ID, victim *eligibility.Job, now time.Time) (d Decision) {
	if !validAction(action) {
		return f.unresolved(action, eligibility.ReasonInvalidAction)
	}
	if victim == nil {
		return f.checkNil(action, preemptor, now)
	}
	var r *runtime.Resolver
	if f != nil {
		r = f.Resolver
	}
	if f == nil || !f.FailOpen {
		if reason := queueProblem(r, action, preemptor, victim.Queue); reason != "" {
			return f.unresolved(action, reason)
		}
	}
	// Filling the named result in place avoids copying the Resolution
	// through temporaries (measurably cheaper on this hot path).
	d.Resolution = r.Resolve(action, preemptor, victim.Queue)
	d.Allowed = true
	switch {
	case d.Resolution.Duration <= 0:
		d.Reason = ReasonNoMinRuntime
	case victim.Start.IsZero():
		d.Reason = eligibility.ReasonMissingStart
	default:
		until := clock.AddSaturating(victim.Start, d.Resolution.Duration)
		switch {
		case !now.Before(until):
			d.Reason = ReasonNotProtected
		case elastic(subgroups(victim)):
			// Protected, but elastic: the scenario validator decides
			// how many tasks may go. Subgroups are only read here, so
			// the common unprotected case never touches them. The
			// reason changes (to not_protected) at until.
			d.Reason = ReasonElasticDeferred
			d.Until = until
		default:
			d.Allowed = false
			d.Until = until
			d.Reason = eligibility.ReasonMinRuntimeProtected
			if now.Before(victim.Start) {
				d.Reason = eligibility.ReasonClockSkew
			}
		}
	}
	return d
}

// unresolved is the fail-closed denial for an invalid action, a missing
// resolver or an unset or unknown queue, kept out of line so that Check's
// stack frame stays small.
//
//go:noinline
func (f *Filter) unresolved(action runtime.Action, reason eligibility.Reason) Decision {
	m := runtime.MethodQueue
	if action != runtime.ActionPreempt && f != nil {
		m = f.Resolver.Method()
	}
	return Decision{Decision: eligibility.Decision{Reason: reason},
		Resolution: runtime.Resolution{Source: queuetree.None, Action: action, Method: m}}
}

// checkNil is Check for a nil victim, kept out of line so that Check's
// stack frame stays small.
//
//go:noinline
func (f *Filter) checkNil(action runtime.Action, preemptor queuetree.ID, now time.Time) Decision {
	return f.Check(action, preemptor, &eligibility.Job{Queue: queuetree.None}, now)
}

// Decision is the [Filter]'s answer about one victim: the
// common [eligibility.Decision] (may it be evicted now, why, until when) and the
// min-runtime that applied.
type Decision struct {
	// Decision: Allowed, Reason (see [eligibility.Reason] for the filter's reasons) and
	// Until, the protection expiry start + d while the victim is protected
	// (a denial, or an elastic victim allowed with elastic_deferred, whose
	// reason becomes not_protected then); zero otherwise.
	eligibility.Decision
	// Resolution is the min-runtime that applied: its duration, the queue
	// whose setting it came from (queuetree.None for the default), the
	// action and the method. It is filled for every decision, elastic
	// victims included, except a queue_unset, unknown_queue, no_resolver
	// or invalid_action denial (nothing was resolved: Duration 0, Source
	// queuetree.None).
	Resolution runtime.Resolution
}

// The reasons only the filter gives; the denials it shares with the
// validator and the nominator (eligibility.ReasonMinRuntimeProtected,
// ReasonClockSkew, ReasonMissingStart, ReasonQueueUnset,
// ReasonUnknownQueue, ReasonNoResolver, ReasonInvalidAction) are declared
// in package eligibility.
const (
	// ReasonNotProtected: the victim ran its full min-runtime (now >=
	// start + d), so it may be evicted.
	ReasonNotProtected eligibility.Reason = "not_protected"
	// ReasonNoMinRuntime: the resolved min-runtime is zero (KAI-Scheduler's
	// min-runtime plugin: "0s" means instantly evictable), so the victim is
	// never protected.
	ReasonNoMinRuntime eligibility.Reason = "no_min_runtime"
	// ReasonElasticDeferred: the victim is still protected but elastic; the
	// per-pair filter allows it and defers the decision to the
	// [Validator].
	ReasonElasticDeferred eligibility.Reason = "elastic_deferred"
)

// elastic reports whether some subgroup has MinAvailable < Active
// (KAI-Scheduler's docs/plugins/minruntime.md: "MinAvailable < number of
// pods in a job"). O(len(sgs)).
func elastic(sgs []eligibility.Subgroup) bool {
	for i := range sgs {
		if sgs[i].MinAvailable < sgs[i].Active {
			return true
		}
	}
	return false
}

// subgroupIndex returns the index in sgs of the subgroup named name, or -1.
func subgroupIndex(sgs []eligibility.Subgroup, name string) int {
	for i := range sgs {
		if sgs[i].Name == name {
			return i
		}
	}
	return -1
}
