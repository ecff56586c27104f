package admitprotect

import (
	"errors"
	"time"

	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/internal/configkey"
)

// Kind is the kind of a preemption as Kueue's KEP-9876
// ("Preemption protection — guaranteed minimum runtime for cross-ClusterQueue
// preemption") tells them apart: within the preemptor's ClusterQueue, or
// across ClusterQueues of a cohort, by fair sharing or by reclaim. The
// names are Kueue's preemption reasons.
type Kind uint8

const (
	// InClusterQueue (the zero value): a preemption within the
	// preemptor's own ClusterQueue. KEP-9876 never protects against it
	// (time-based same-priority preemption, package timebased, does).
	InClusterQueue Kind = iota
	// InCohortFairSharing: fair-sharing rebalancing across the cohort.
	InCohortFairSharing
	// InCohortReclamation: a ClusterQueue reclaims its nominal quota.
	InCohortReclamation
	// InCohortReclaimWhileBorrowing: a borrowing ClusterQueue preempts
	// another borrowing one (borrowWithinCohort).
	InCohortReclaimWhileBorrowing
)

// Protection is Kueue's KEP-9876 preemption protection: a job
// admitted less than a minimum duration ago may not be the victim of a
// cross-ClusterQueue preemption. It has one rule per kind: FairSharing
// (Kueue: preemptionProtection.fairSharing.minAdmitDuration) guards against
// [InCohortFairSharing], ReclaimWithinCohort
// (preemptionProtection.reclaimWithinCohort.minAdmitDuration) against
// [InCohortReclamation] and [InCohortReclaimWhileBorrowing]. A nil rule is
// unset: no protection of that kind. The zero value protects nothing, as
// Kueue without the block.
//
// It is a plain value, safe for concurrent use; its JSON form is Kueue's
// preemptionProtection block ([Protection.UnmarshalJSON]).
type Protection struct {
	// FairSharing is the minimum admitted time before a fair-sharing
	// preemption; nil: unset. Must be positive when set.
	FairSharing *time.Duration
	// ReclaimWithinCohort is the minimum admitted time before a reclaim;
	// nil: unset. Must be positive when set.
	ReclaimWithinCohort *time.Duration
}

// Validate reports every problem of c at once, each message starting with
// "eligibility: ": a rule set to zero or a negative duration (KEP-9876's
// validation: positive when set, and no floor such as KEP-8522's 1m).
func (c Protection) Validate() error {
	var errs []error
	for _, r := range []struct {
		name string
		d    *time.Duration
	}{{"fairSharing", c.FairSharing}, {"reclaimWithinCohort", c.ReclaimWithinCohort}} {
		if r.d != nil && *r.d <= 0 {
			errs = append(errs, configkey.Errorf(r.name+".minAdmitDuration", "eligibility: preemptionProtection.%s.minAdmitDuration must be positive, got %v", r.name, *r.d))
		}
	}
	return errors.Join(errs...)
}

// minAdmitDuration returns the rule that applies to a preemption of kind k
// and whether one is set. An unknown kind gets the longest rule set, so
// that a bad value never costs a job its protection.
func (c Protection) minAdmitDuration(k Kind) (time.Duration, bool) {
	var d *time.Duration
	switch k {
	case InClusterQueue:
		return 0, false
	case InCohortFairSharing:
		d = c.FairSharing
	case InCohortReclamation, InCohortReclaimWhileBorrowing:
		d = c.ReclaimWithinCohort
	default:
		d = c.FairSharing
		if r := c.ReclaimWithinCohort; d == nil || (r != nil && *r > *d) {
			d = r
		}
	}
	if d == nil || *d <= 0 {
		return 0, false
	}
	return *d, true
}

// Check decides whether a job admitted at admitted (Kueue: the last
// transition of its Admitted condition to True; the zero time when it is
// not admitted) may be the victim of a preemption of kind k at now,
// following KEP-9876's "Preemption Eligibility":
//
//   - no rule for k (unset, or [InClusterQueue]): allowed, [ReasonNoMinAdmit];
//   - evicted (Kueue: Evicted=True): allowed, [ReasonAlreadyEvicted]: an
//     evicted job is never protected, however recently admitted;
//   - not admitted (zero admitted): allowed, [ReasonNotAdmitted];
//   - now < admitted + d: denied, [ReasonMinAdmitProtected], Until =
//     admitted + d, the instant the preemptor should be retried (an
//     admission time after now, clock skew, is protected the same way);
//   - otherwise (now >= admitted + d; eligible at exactly d): allowed,
//     [ReasonMinAdmitElapsed].
//
// The boundary is the KEP's, and the opposite of KEP-8522's time-based rule
// (there a job is not preemptible at exactly minAdmitDuration). O(1), no
// allocation.
func (c Protection) Check(k Kind, admitted time.Time, evicted bool, now time.Time) eligibility.Decision {
	d, ok := c.minAdmitDuration(k)
	switch {
	case !ok:
		return eligibility.Decision{Allowed: true, Reason: ReasonNoMinAdmit}
	case evicted:
		return eligibility.Decision{Allowed: true, Reason: ReasonAlreadyEvicted}
	case admitted.IsZero():
		return eligibility.Decision{Allowed: true, Reason: ReasonNotAdmitted}
	}
	if until := clock.AddSaturating(admitted, d); now.Before(until) {
		return eligibility.Decision{Reason: ReasonMinAdmitProtected, Until: until}
	}
	return eligibility.Decision{Allowed: true, Reason: ReasonMinAdmitElapsed}
}

// The reasons of [Protection.Check].
const (
	// ReasonNoMinAdmit: no KEP-9876 minAdmitDuration applies to this kind
	// of preemption (the rule is unset, or the preemption is within the
	// ClusterQueue), so the victim is not protected by it.
	ReasonNoMinAdmit eligibility.Reason = "no_min_admit"
	// ReasonNotAdmitted: the victim has no admission time (Kueue: its
	// Admitted condition is not True); it has no runtime to protect.
	ReasonNotAdmitted eligibility.Reason = "not_admitted"
	// ReasonAlreadyEvicted: the victim is already being evicted (Kueue:
	// Evicted=True); KEP-9876 never protects it.
	ReasonAlreadyEvicted eligibility.Reason = "already_evicted"
	// ReasonMinAdmitElapsed: the victim has been admitted for at least
	// minAdmitDuration (now >= admitted + d), so it may be preempted.
	ReasonMinAdmitElapsed eligibility.Reason = "min_admit_elapsed"
	// ReasonMinAdmitProtected: the victim was admitted less than
	// minAdmitDuration ago (now < admitted + d); Until is admitted + d.
	ReasonMinAdmitProtected eligibility.Reason = "min_admit_protected"
)
