package minruntime

import (
	"time"

	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// Filter is the per-pair victim filter (KAI's preemptFilterFn and
// reclaimFilterFn, the design's IsPreemptible). It never looks at
// Job.Preemptible or priorities. The zero value (and a nil *Filter)
// denies with ReasonNoResolver. Immutable, safe for concurrent use.
type Filter struct {
	// Resolver resolves the min-runtime for an action and pair of queues.
	Resolver *runtime.Resolver
	// FailOpen resolves an unset or unknown queue to the node-pool
	// defaults instead of denying (under the lca method, a reclaimer's too).
	FailOpen bool
}

// Check decides whether victim may be evicted at now by a preemptor in
// queue preemptor (runtime.ActionPreempt: same queue; ActionReclaim:
// across queues). In order:
//
//  0. an invalid action: denied, ReasonInvalidAction; then, unless
//     FailOpen, no Resolver, or an unset or unknown queue: denied,
//     ReasonNoResolver, ReasonQueueUnset, ReasonUnknownQueue (no Until,
//     no Resolution);
//  1. d = Resolver.Resolve(action, preemptor, victim.Queue);
//  2. d <= 0: allowed, "no_min_runtime";
//  3. no start: allowed, eligibility.ReasonMissingStart;
//  4. now >= start + d: allowed, "not_protected";
//  5. elastic: allowed, ReasonElasticDeferred, Until = start + d (the
//     Validator decides);
//  6. otherwise denied, Until = start + d: eligibility.ReasonClockSkew
//     when now < start, else eligibility.ReasonMinRuntimeProtected.
//
// start + d saturates at the last instant a time.Time holds. Cost: one
// resolver query (O(1), O(log depth) for an lca reclaim), plus a scan of a
// protected victim's subgroups; no allocation. A nil victim is a Job with
// no queue.
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
		d.Reason = reasonNoMinRuntime
	case victim.Start.IsZero():
		d.Reason = eligibility.ReasonMissingStart
	default:
		until := clock.AddSaturating(victim.Start, d.Resolution.Duration)
		switch {
		case !now.Before(until):
			d.Reason = reasonNotProtected
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

// Decision is the [Filter]'s answer about one victim.
type Decision struct {
	// Decision: Until is start + d while the victim is protected.
	eligibility.Decision
	// Resolution is the min-runtime that applied (zero for a denial that
	// resolved nothing).
	Resolution runtime.Resolution
}

// The filter's own reasons.
const (
	// reasonNotProtected: now >= start + d.
	reasonNotProtected eligibility.Reason = "not_protected"
	// reasonNoMinRuntime: d is zero ("0s" means instantly evictable).
	reasonNoMinRuntime eligibility.Reason = "no_min_runtime"
	// ReasonElasticDeferred: protected but elastic; the [Validator] decides.
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
