package timebased

import (
	"errors"
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/internal/configkey"
)

// Policy is Kueue's withinClusterQueue policy.
type Policy uint8

const (
	// Never (the zero value) never preempts within the queue.
	Never Policy = iota
	// LowerPriority preempts only strictly lower priorities.
	LowerPriority
	// LowerOrNewerEqualPriority also preempts newer or expired equal
	// priorities.
	LowerOrNewerEqualPriority
)

var preemptionPolicyNames = [...]string{"Never", "LowerPriority", "LowerOrNewerEqualPriority"}

// name returns Kueue's spelling of p, or "PreemptionPolicy(N)".
func (p Policy) name() string {
	if int(p) < len(preemptionPolicyNames) {
		return preemptionPolicyNames[p]
	}
	return fmt.Sprintf("PreemptionPolicy(%d)", uint8(p))
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

// Config is the within-queue preemption policy. The zero value is valid:
// Never, nothing is preemptible. Its methods do not re-validate: call
// [Config.Validate] when the configuration is loaded.
type Config struct {
	// Policy is the preemption policy within the queue.
	Policy Policy
	// MinAdmitDuration, when set (at least 1m, with
	// LowerOrNewerEqualPriority only), makes an equal-priority job
	// preemptible once it has held its quota for strictly longer than
	// this. Nil disables the time-based rule.
	MinAdmitDuration *time.Duration
	// TimestampPreemptionBuffer: an equal-priority candidate is newer
	// only when it queued more than 5m after the preemptor (see the
	// package doc). Not part of the JSON form.
	TimestampPreemptionBuffer bool
}

// Validate reports every problem of c at once: an unknown policy, a
// MinAdmitDuration below 1m, or one set with a policy other than
// LowerOrNewerEqualPriority (KEP-8522's webhook rules 1 and 3).
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
				LowerOrNewerEqualPriority.name(), c.Policy.name()))
		}
	}
	return errors.Join(errs...)
}

// Request is the pending job that wants to preempt.
type Request struct {
	// Priority is the preemptor's priority.
	Priority int32
	// Timestamp is the preemptor's queue-order timestamp; zero: unknown,
	// no candidate counts as newer.
	Timestamp time.Time
}

// Candidate is a running job of the preemptor's queue.
type Candidate struct {
	// ID identifies the job; the last tie-breaker of the candidate order.
	ID string
	// Priority is the job's priority.
	Priority int32
	// Reserved is when the job's quota was reserved (Kueue: the
	// QuotaReserved condition's last transition); zero: unknown, never
	// expired.
	Reserved time.Time
	// Queued is the job's own queue-order timestamp; zero: Reserved
	// stands in (see the package doc, "Which newer").
	Queued time.Time
	// Evicted: already being evicted (Kueue: Evicted=True); such
	// preemptible candidates are preempted first.
	Evicted bool
}

// Decision is the verdict on one [Candidate].
type Decision struct {
	// Decision: Reason is the candidate's class, the label
	// [Config.Classify] gives, by which [Compare] orders decisions; Allowed
	// when the class is preemptible ("lower_priority", "expired",
	// "newer"); Until, for an equal-priority candidate under
	// MinAdmitDuration M not yet expired, is Reserved + M + 1ns, when it
	// expires (saturating at clock.Last, where every candidate has).
	eligibility.Decision
	// Candidate is the candidate decided about (a copy).
	Candidate Candidate
	// At is the now of Classify.
	At time.Time
}

// Classify decides whether p may preempt cand at now, in order; the
// decision's Reason is the candidate's class:
//
//   - policy Never (or unknown): denied, "not_allowed";
//   - higher priority: denied, "higher_priority"; lower: allowed,
//     "lower_priority";
//   - equal priority under LowerPriority: denied, "not_allowed";
//   - equal priority under LowerOrNewerEqualPriority: allowed, "expired",
//     when M is set, Reserved known and now − Reserved > M (or now is
//     clock.Last, where nothing is protected); else allowed, "newer", when
//     Queued (or Reserved) is after a non-zero p.Timestamp; else denied,
//     "unknown_reservation", when the timestamp it needs is zero; else
//     denied, "protected" (Until the expiry).
//
// O(1), no allocation.
func (c Config) Classify(p Request, cand Candidate, now time.Time) Decision {
	d := Decision{Candidate: cand, At: now}
	var cls class
	cls, d.Until = c.classify(p, &cand, now)
	d.Allowed, d.Reason = cls.preemptible(), cls.reason()
	return d
}

// classify returns the class of cand and the Until of its decision.
func (c Config) classify(p Request, cand *Candidate, now time.Time) (cls class, until time.Time) {
	switch {
	case c.Policy != LowerPriority && c.Policy != LowerOrNewerEqualPriority:
		cls = classNotAllowed
	case cand.Priority > p.Priority:
		cls = classHigherPriority
	case cand.Priority < p.Priority:
		cls = classLowerPriority
	case c.Policy != LowerOrNewerEqualPriority:
		cls = classNotAllowed
	default: // equal priority under LowerOrNewerEqualPriority
		timeBased := c.MinAdmitDuration != nil && *c.MinAdmitDuration > 0
		if timeBased && !cand.Reserved.IsZero() {
			// Expired when now - Reserved > M: from Reserved + M + 1ns
			// on. The sum saturates at clock.Last, where nothing is
			// protected.
			until = clock.AddSaturating(clock.AddSaturating(cand.Reserved, *c.MinAdmitDuration), time.Nanosecond)
			if !now.Before(until) {
				return classExpired, time.Time{}
			}
		}
		// Newer compares queue-order timestamps, as Kueue does; without
		// the candidate's own, its reservation stands in.
		queued := cand.Queued
		if queued.IsZero() {
			queued = cand.Reserved
		}
		switch {
		case queued.IsZero():
			cls = classUnknownReservation
		case !p.Timestamp.IsZero() && queued.After(p.Timestamp) &&
			(!c.TimestampPreemptionBuffer || queued.Sub(p.Timestamp) > timestampPreemptionBuffer):
			cls = classNewer
		case timeBased && cand.Reserved.IsZero(): // expiry unknown
			cls = classUnknownReservation
		default:
			cls = classProtected
		}
	}
	return cls, until
}
