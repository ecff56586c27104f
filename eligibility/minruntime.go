package eligibility

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// MinRuntimeFilter is the per-pair min-runtime victim filter (KAI-Scheduler's min-runtime plugin's
// preemptFilterFn/reclaimFilterFn, the min-runtime design's IsPreemptible): may this victim
// be evicted now by a preemptor in that queue for that action?
//
// It runs AFTER the scheduler's own fundamental victim filters (is the victim
// preemptible at all, is an in-queue preemption or a cross-queue reclaim
// legal here; min-runtime design, phase 2): it does not look at [Job.Preemptible] or
// priorities, only at the min-runtime protection.
//
// # Fail closed
//
// A victim whose queue is unset (queuetree.None, the zero ID, so a Job
// whose Queue field was forgotten) or an ID the resolver's tree did not
// issue (out of its range) is denied with ReasonQueueUnset or
// ReasonUnknownQueue and no Until, whatever its start: its protection
// cannot be known, and a forgotten field must never cost a job its
// protection. (An in-range ID kept from another tree cannot be told from
// one of this tree's: look IDs up again in each new tree.) The
// preemptor's queue is checked the same way when the answer depends on it
// (a reclaim resolved with runtime.MethodLCA). Set FailOpen to resolve
// such queues to the node-pool defaults instead.
//
// The zero value (and a nil *MinRuntimeFilter) fails closed too: without a
// Resolver (or with one never built) no protection can be known, so every
// victim is denied with ReasonNoResolver and no Until. With FailOpen set, a
// missing Resolver resolves every duration to zero instead, so every victim
// is allowed (ReasonNoMinRuntime). A MinRuntimeFilter is immutable after
// construction and safe for concurrent use.
//
// An action other than runtime.ActionPreempt and runtime.ActionReclaim
// (runtime.Action(2) and up, which only a conversion produces) is denied
// with ReasonInvalidAction and no Until, FailOpen or not: the resolver
// gives such an action a zero duration, which would otherwise read as "not
// protected".
type MinRuntimeFilter struct {
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
//  5. Still protected but elastic ([Job.IsElastic]): allowed with
//     ReasonElasticDeferred; whether it may lose these tasks is the
//     [ScenarioValidator]'s decision (KAI-Scheduler's min-runtime design, phase 4).
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
// scan of its subgroups (loaded through [Job.SubgroupsFunc] when
// Subgroups is nil, so an embedder may supply them lazily); no
// allocation of its own. A nil victim is treated as a [Job] with no
// queue (so it is denied with ReasonQueueUnset), no start and no
// subgroups.
func (f *MinRuntimeFilter) Check(action runtime.Action, preemptor queuetree.ID, victim *Job, now time.Time) (d MinRuntimeDecision) {
	if !validAction(action) {
		return f.unresolved(action, ReasonInvalidAction)
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
		d.Reason = ReasonMissingStart
	default:
		until := clock.AddSaturating(victim.Start, d.Resolution.Duration)
		switch {
		case !now.Before(until):
			d.Reason = ReasonNotProtected
		case victim.IsElastic():
			// Protected, but elastic: the scenario validator decides
			// how many tasks may go. Subgroups are only read here, so
			// the common unprotected case never touches them. The
			// reason changes (to not_protected) at until.
			d.Reason = ReasonElasticDeferred
			d.Until = until
		default:
			d.Allowed = false
			d.Until = until
			d.Reason = ReasonMinRuntimeProtected
			if now.Before(victim.Start) {
				d.Reason = ReasonClockSkew
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
func (f *MinRuntimeFilter) unresolved(action runtime.Action, reason Reason) MinRuntimeDecision {
	m := runtime.MethodQueue
	if action != runtime.ActionPreempt && f != nil {
		m = f.Resolver.Method()
	}
	return MinRuntimeDecision{Decision: Decision{Reason: reason},
		Resolution: runtime.Resolution{Source: queuetree.None, Action: action, Method: m}}
}

// checkNil is Check for a nil victim, kept out of line so that Check's
// stack frame stays small.
//
//go:noinline
func (f *MinRuntimeFilter) checkNil(action runtime.Action, preemptor queuetree.ID, now time.Time) MinRuntimeDecision {
	return f.Check(action, preemptor, &Job{Queue: queuetree.None}, now)
}

// Allowed is Check(...).Allowed: the boolean a scheduler's IsPreemptible
// hook needs. No allocation.
func (f *MinRuntimeFilter) Allowed(action runtime.Action, preemptor queuetree.ID, victim *Job, now time.Time) bool {
	return f.Check(action, preemptor, victim, now).Allowed
}

// CheckByName is [MinRuntimeFilter.Check] with the preemptor's and the
// victim's queues given by name (the victim's Job.Queue is ignored). A name
// the resolver's tree does not know is an error, never a silent fall back to
// the default durations (which would drop the queue's protection): the
// decision is then a denial with [ReasonUnknownQueue] and no Until, so a
// caller that ignores the error still keeps the job. The names are checked
// first: with known names, an invalid action is Check's invalid_action
// denial and no error. Cost: two map lookups plus Check; no allocation.
func (f *MinRuntimeFilter) CheckByName(action runtime.Action, preemptorQueue, victimQueue string, victim *Job, now time.Time) (MinRuntimeDecision, error) {
	var t *queuetree.Tree
	if f != nil && f.Resolver != nil {
		t = f.Resolver.Tree()
	}
	p, okP := t.Lookup(preemptorQueue)
	v, okV := t.Lookup(victimQueue)
	if !okP || !okV {
		name := preemptorQueue
		if okP {
			name = victimQueue
		}
		return MinRuntimeDecision{Decision: Decision{Reason: ReasonUnknownQueue}}, fmt.Errorf("eligibility: %w %q", queuetree.ErrUnknownQueue, name)
	}
	j := Job{}
	if victim != nil {
		j = *victim
	}
	j.Queue = v
	return f.Check(action, p, &j, now), nil
}

// MinRuntimeDecision is the [MinRuntimeFilter]'s answer about one victim: the
// common [Decision] (may it be evicted now, why, until when) and the
// min-runtime that applied.
type MinRuntimeDecision struct {
	// Decision: Allowed, Reason (see [Reason] for the filter's reasons) and
	// Until, the protection expiry start + d while the victim is protected
	// (a denial, or an elastic victim allowed with elastic_deferred, whose
	// reason becomes not_protected then); zero otherwise.
	Decision
	// Resolution is the min-runtime that applied: its duration, the queue
	// whose setting it came from (queuetree.None for the default), the
	// action and the method. It is filled for every decision, elastic
	// victims included, except a queue_unset, unknown_queue, no_resolver
	// or invalid_action denial (nothing was resolved: Duration 0, Source
	// queuetree.None).
	Resolution runtime.Resolution
}

// String describes d in one line, for example "denied
// (minruntime_protected) until 2025-01-15T10:30:00Z: reclaim min-runtime 10m
// from queue B (lca)"; a denial that resolved nothing (queue_unset,
// unknown_queue, no_resolver, invalid_action) has no resolution part, so
// it never reads as if the default applied. It allocates.
func (d MinRuntimeDecision) String() string {
	b := d.Decision.appendTo(nil)
	switch d.Reason {
	case ReasonQueueUnset, ReasonUnknownQueue, ReasonNoResolver, ReasonInvalidAction:
		if !d.Allowed {
			return string(b)
		}
	}
	b = append(b, ": "...)
	b = append(b, d.Resolution.String()...)
	return string(b)
}
