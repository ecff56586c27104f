package timebased

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/internal/configkey"
)

// Policy says which running jobs of its own queue a pending job may
// preempt (Kueue's withinClusterQueue policy, KEP-8522).
type Policy uint8

const (
	// Never (the zero value) never preempts within the queue.
	Never Policy = iota
	// LowerPriority preempts only strictly lower priorities.
	LowerPriority
	// LowerOrNewerEqualPriority also preempts equal priorities
	// that are newer (admitted after the preemptor entered the queue) or,
	// with a MinAdmitDuration, that have run longer than it (expired).
	LowerOrNewerEqualPriority
)

var preemptionPolicyNames = [...]string{"Never", "LowerPriority", "LowerOrNewerEqualPriority"}

// String returns Kueue's spelling ("Never", "LowerPriority",
// "LowerOrNewerEqualPriority") or "Policy(N)" for an unknown value.
func (p Policy) String() string {
	if int(p) < len(preemptionPolicyNames) {
		return preemptionPolicyNames[p]
	}
	return fmt.Sprintf("PreemptionPolicy(%d)", uint8(p))
}

// MarshalText implements [encoding.TextMarshaler]; an unknown value is an
// error.
func (p Policy) MarshalText() ([]byte, error) {
	if int(p) >= len(preemptionPolicyNames) {
		return nil, fmt.Errorf("eligibility: unknown preemption policy %d", uint8(p))
	}
	return []byte(p.String()), nil
}

// UnmarshalText implements [encoding.TextUnmarshaler]. It accepts the three
// names in any letter case; the empty string is the default (Never).
// Anything else is an error and leaves p unchanged.
func (p *Policy) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*p = Never
		return nil
	}
	for i, name := range preemptionPolicyNames {
		if strings.EqualFold(string(b), name) {
			*p = Policy(i)
			return nil
		}
	}
	return fmt.Errorf("eligibility: unknown preemption policy %q (want Never, LowerPriority or LowerOrNewerEqualPriority)", b)
}

// minAdmitDurationFloor is the smallest MinAdmitDuration
// [Config.Validate] accepts (KEP-8522: "at least 1 minute").
const minAdmitDurationFloor = time.Minute

// timestampPreemptionBuffer is the fixed buffer of Kueue's former
// SchedulerTimestampPreemptionBuffer feature gate (removed by Kueue PR
// #14115): with
// [Config.TimestampPreemptionBuffer], an equal-priority candidate
// is newer only when it queued more than this after the preemptor.
const timestampPreemptionBuffer = 5 * time.Minute

// Config configures preemption among the jobs of one queue,
// including time-based preemption of equal priorities (Kueue KEP-8522,
// keps/8522-time-based-same-priority-preemption). The zero value is valid:
// policy Never, nothing is preemptible.
//
// Config is a plain value, safe for concurrent use. Its methods do
// not re-validate: call [Config.Validate] when the configuration
// is loaded.
type Config struct {
	// Policy is the preemption policy within the queue.
	Policy Policy
	// MinAdmitDuration, when set, makes an equal-priority job preemptible
	// once it has held its quota reservation for strictly longer than this.
	// Nil disables time-based preemption. It is valid only with
	// LowerOrNewerEqualPriority and must be at least
	// 1m. runtime.Explicit builds the pointer.
	// Classify ignores it under other policies and when it is not positive.
	MinAdmitDuration *time.Duration
	// TimestampPreemptionBuffer models Kueue's former
	// SchedulerTimestampPreemptionBuffer feature gate (alpha, off by
	// default, removed by Kueue PR #14115, so current Kueue behaves as
	// false): an equal-priority candidate counts as newer only when its
	// queue-order timestamp is more than 5 minutes after the preemptor's,
	// strictly. The time-based (expired) rule is unaffected. It is a
	// scheduler-wide gate in Kueue, not part of the ClusterQueue, so
	// [Config.Kueue] does not carry it.
	TimestampPreemptionBuffer bool
}

// Validate reports every problem of c at once (joined with [errors.Join]),
// or nil, with the rules of KEP-8522's "Webhook Validation" section that
// this flat form can express: an unknown policy; a MinAdmitDuration below 1m
// (0 and negatives included; rule 1); a MinAdmitDuration set with a policy
// other than LowerOrNewerEqualPriority (rule 3). A nil MinAdmitDuration is
// always valid (rule 2).
// Each message starts with "eligibility: ".
func (c Config) Validate() error {
	var errs []error
	if int(c.Policy) >= len(preemptionPolicyNames) {
		errs = append(errs, configkey.Errorf("withinClusterQueue", "eligibility: unknown preemption policy %d", uint8(c.Policy)))
	}
	if m := c.MinAdmitDuration; m != nil {
		if *m < minAdmitDurationFloor {
			errs = append(errs, configkey.Errorf("withinClusterQueueConfig.minAdmitDuration", "eligibility: minAdmitDuration must be at least %v, got %v", minAdmitDurationFloor, *m))
		}
		if c.Policy != LowerOrNewerEqualPriority {
			errs = append(errs, configkey.Errorf("withinClusterQueueConfig", "eligibility: minAdmitDuration is only valid with policy %v, not %v",
				LowerOrNewerEqualPriority, c.Policy))
		}
	}
	return errors.Join(errs...)
}

// Request describes the pending job that wants to preempt (the
// preemptor).
type Request struct {
	// Priority is the preemptor's priority.
	Priority int32
	// Timestamp is the preemptor's queue-order timestamp (its creation, or
	// its last readiness-timeout eviction under requeue's Eviction
	// strategy). A candidate queued (or, without Candidate.Queued, reserved)
	// strictly after it is "newer". The zero time is treated as unknown: no
	// candidate counts as newer.
	Timestamp time.Time
}

// Candidate is a running job of the preemptor's queue that might be preempted.
type Candidate struct {
	// ID identifies the job; the last tie-breaker of the candidate order.
	ID string
	// Priority is the job's priority.
	Priority int32
	// Reserved is when the job's quota was reserved (Kueue: the
	// QuotaReserved condition's last transition). Admission time is measured
	// from it. The zero time means unknown: such a candidate never counts as
	// expired, and it orders as if reserved at the decision's instant
	// (Kueue's candidate ordering uses the current time for a missing
	// reservation; see [Compare]).
	Reserved time.Time
	// Queued is the job's own queue-order timestamp (its creation, or a
	// later eviction instant, as backoff.QueueOrder.Timestamp computes it).
	// When set, the candidate is "newer" if Queued is strictly after the
	// preemptor's timestamp — it queued later — as Kueue's implementation
	// decides. When zero, Reserved stands in for it, as KEP-8522's text
	// words the rule. Set it whenever it is known; see the package doc,
	// "Which newer".
	Queued time.Time
	// Evicted reports that the candidate is already being evicted (Kueue:
	// its Evicted condition is True, for instance after an earlier
	// preemption that has not completed). It does not change the class;
	// preemptible candidates already being evicted are preempted first.
	Evicted bool
}

// Class says why a candidate is or is not preemptible. The three
// preemptible classes are listed in preemption order.
type Class uint8

const (
	// ClassNotAllowed (the zero value): the policy forbids it (Never; an
	// equal priority under LowerPriority; an unknown policy).
	ClassNotAllowed Class = iota
	// ClassHigherPriority: the candidate outranks the preemptor.
	ClassHigherPriority
	// ClassProtected: equal priority, not newer than the preemptor and not
	// (yet) past MinAdmitDuration.
	ClassProtected
	// ClassUnknownReservation: equal priority, not newer, and what would
	// decide is missing: both Queued and Reserved are the zero time, or
	// Reserved is, under a MinAdmitDuration, so expiry cannot be judged.
	// Conservatively not preemptible.
	ClassUnknownReservation
	// ClassLowerPriority: preemptible, strictly lower priority.
	ClassLowerPriority
	// ClassExpired: preemptible, equal priority, reserved for strictly
	// longer than MinAdmitDuration — a time-based pick, which Kueue reports
	// with the reason InClusterQueueTimeBased. Takes precedence over newer.
	ClassExpired
	// ClassNewer: preemptible, equal priority, queued (or, without Queued,
	// reserved) strictly after the preemptor's timestamp, and not expired.
	ClassNewer
)

var candidateClassNames = [...]string{
	"not_allowed", "higher_priority", "protected", "unknown_reservation",
	"lower_priority", "expired", "newer",
}

// String returns the class as a stable snake_case label ("lower_priority",
// "expired", "newer", "protected", …), or "Class(N)".
func (c Class) String() string {
	if int(c) < len(candidateClassNames) {
		return candidateClassNames[c]
	}
	return fmt.Sprintf("CandidateClass(%d)", uint8(c))
}

// preemptible reports whether the class allows preemption: lower
// priority, expired or newer (a [Decision]'s Allowed).
func (c Class) preemptible() bool {
	return c == ClassLowerPriority || c == ClassExpired || c == ClassNewer
}

// reason returns the class's label as an [eligibility.Reason] (the same
// text as String), a [Decision]'s Reason. No allocation.
func (c Class) reason() eligibility.Reason {
	if int(c) < len(candidateClassNames) {
		return eligibility.Reason(candidateClassNames[c])
	}
	return ""
}

// TimeBased reports whether the class is the time-based one (expired): the
// picks an embedder reports as InClusterQueueTimeBased.
func (c Class) TimeBased() bool { return c == ClassExpired }

// Decision is the verdict on one [Candidate]. It is a small value;
// computing one never allocates.
type Decision struct {
	// Decision: Allowed reports whether the candidate may be preempted
	// (its Class is preemptible); Reason is the class's label
	// (the class's String); Until is the earliest instant at which time
	// alone changes the class: for an equal-priority candidate that is
	// protected or newer under a MinAdmitDuration M, the instant it expires,
	// Reserved + M + 1ns (the first instant with now − Reserved > M; at
	// exactly Reserved + M it is not yet expired). The zero time otherwise.
	eligibility.Decision
	// Candidate is the candidate decided about (a copy).
	Candidate Candidate
	// Class is why the candidate is or is not preemptible; it also orders
	// the preemptible candidates ([Compare]).
	Class Class
	// At is the instant the decision was made (the now of Classify). The
	// candidate order counts a missing reservation as this instant, as
	// Kueue counts it as the current time.
	At time.Time
}

// Classify decides whether cand may be preempted by p at now (Kueue's
// SatisfiesPreemptionPolicy, pkg/scheduler/preemption/common/
// preemption_policy.go, extended by KEP-8522's time-based rule):
//
//   - policy Never (or an unknown policy): [ClassNotAllowed];
//   - higher priority than p: [ClassHigherPriority];
//   - lower priority: [ClassLowerPriority];
//   - equal priority, policy LowerPriority: ClassNotAllowed;
//   - equal priority, policy LowerOrNewerEqualPriority: [ClassExpired]
//     when MinAdmitDuration M is set, Reserved is known and now − Reserved
//     > M (strictly: exactly M is not expired); else [ClassNewer] when the
//     candidate's queue-order timestamp (Queued, or Reserved when Queued is
//     zero) is after p.Timestamp (and p.Timestamp is not zero), by more
//     than 5m with TimestampPreemptionBuffer; else
//     [ClassUnknownReservation] when that timestamp is unknown, or under M
//     when Reserved is; else [ClassProtected].
//
// Kueue compares queue-order timestamps only, so a candidate with Queued
// but no reservation time is still judged newer or not; only the
// time-based rule needs Reserved. Until is set as described in
// [Decision]. A Reserved later than now (clock skew) is simply
// not expired. Cost: O(1), no allocation.
func (c Config) Classify(p Request, cand Candidate, now time.Time) Decision {
	d := Decision{Candidate: cand, At: now}
	d.Class, d.Until = c.classify(p, &cand, now)
	d.Allowed, d.Reason = d.Class.preemptible(), d.Class.reason()
	return d
}

// classify returns the class of cand and the Until of its decision.
func (c Config) classify(p Request, cand *Candidate, now time.Time) (class Class, until time.Time) {
	switch {
	case c.Policy != LowerPriority && c.Policy != LowerOrNewerEqualPriority:
		class = ClassNotAllowed
	case cand.Priority > p.Priority:
		class = ClassHigherPriority
	case cand.Priority < p.Priority:
		class = ClassLowerPriority
	case c.Policy != LowerOrNewerEqualPriority:
		class = ClassNotAllowed
	default: // equal priority under LowerOrNewerEqualPriority
		timeBased := c.MinAdmitDuration != nil && *c.MinAdmitDuration > 0
		if timeBased && !cand.Reserved.IsZero() {
			expiry := clock.AddSaturating(cand.Reserved, *c.MinAdmitDuration) // the last instant not yet expired
			if now.After(expiry) {
				return ClassExpired, time.Time{}
			}
			until = clock.AddSaturating(expiry, time.Nanosecond)
		}
		// Newer compares queue-order timestamps, as Kueue does; without
		// the candidate's own, its reservation stands in.
		queued := cand.Queued
		if queued.IsZero() {
			queued = cand.Reserved
		}
		switch {
		case queued.IsZero():
			class = ClassUnknownReservation
		case !p.Timestamp.IsZero() && queued.After(p.Timestamp) &&
			(!c.TimestampPreemptionBuffer || queued.Sub(p.Timestamp) > timestampPreemptionBuffer):
			class = ClassNewer
		case timeBased && cand.Reserved.IsZero(): // expiry unknown
			class = ClassUnknownReservation
		default:
			class = ClassProtected
		}
	}
	return class, until
}

// Candidates classifies every candidate for p at now, appends the
// preemptible ones to dst in preemption order (see [Compare]) and
// returns the extended slice. Reusing dst across calls avoids allocating
// it; sorting takes O(n) scratch space. Cost: O(n log n).
func (c Config) Candidates(p Request, cands []Candidate, now time.Time, dst []Decision) []Decision {
	start := len(dst)
	for i := range cands {
		if d := c.Classify(p, cands[i], now); d.Allowed {
			dst = append(dst, d)
		}
	}
	Sort(dst[start:])
	return dst
}
