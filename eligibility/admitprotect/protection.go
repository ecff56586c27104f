package admitprotect

import (
	"errors"
	"time"

	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/internal/configkey"
)

// Kind is the kind of a preemption, named as Kueue's preemption reasons.
type Kind uint8

const (
	// InClusterQueue (the zero value): within the preemptor's
	// ClusterQueue; never protected here (see package timebased).
	InClusterQueue Kind = iota
	// InCohortFairSharing: fair-sharing rebalancing across the cohort.
	InCohortFairSharing
	// InCohortReclamation: a ClusterQueue reclaims its nominal quota.
	InCohortReclamation
	// InCohortReclaimWhileBorrowing: a borrowing ClusterQueue preempts
	// another borrowing one.
	InCohortReclaimWhileBorrowing
)

// Protection is KEP-9876's preemptionProtection: one minimum admitted time
// per kind of preemption; a nil rule protects nothing. A plain value, safe
// for concurrent use.
type Protection struct {
	// FairSharing (fairSharing.minAdmitDuration) guards against
	// InCohortFairSharing; positive when set.
	FairSharing *time.Duration
	// ReclaimWithinCohort (reclaimWithinCohort.minAdmitDuration) guards
	// against InCohortReclamation and InCohortReclaimWhileBorrowing.
	ReclaimWithinCohort *time.Duration
}

// Validate reports every rule set to a duration that is not positive.
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

// Check decides whether a job admitted at admitted (Kueue: the Admitted
// condition's last transition to True; zero: not admitted) may be the
// victim of a preemption of kind k at now, in order:
//
//   - no rule for k: allowed, "no_min_admit";
//   - evicted: allowed, "already_evicted";
//   - not admitted: allowed, "not_admitted";
//   - now < admitted + d: denied, [ReasonMinAdmitProtected], Until =
//     admitted + d, when to retry the preemptor;
//   - otherwise: allowed, "min_admit_elapsed".
//
// An unknown kind gets the longest rule. O(1), no allocation.
func (c Protection) Check(k Kind, admitted time.Time, evicted bool, now time.Time) eligibility.Decision {
	d, ok := c.minAdmitDuration(k)
	switch {
	case !ok:
		return eligibility.Decision{Allowed: true, Reason: reasonNoMinAdmit}
	case evicted:
		return eligibility.Decision{Allowed: true, Reason: reasonAlreadyEvicted}
	case admitted.IsZero():
		return eligibility.Decision{Allowed: true, Reason: reasonNotAdmitted}
	}
	if until := clock.AddSaturating(admitted, d); now.Before(until) {
		return eligibility.Decision{Reason: ReasonMinAdmitProtected, Until: until}
	}
	return eligibility.Decision{Allowed: true, Reason: reasonMinAdmitElapsed}
}

// The reasons of [Protection.Check].
const (
	// reasonNoMinAdmit: no rule applies to this kind of preemption.
	reasonNoMinAdmit eligibility.Reason = "no_min_admit"
	// reasonNotAdmitted: the victim has no admission time.
	reasonNotAdmitted eligibility.Reason = "not_admitted"
	// reasonAlreadyEvicted: Evicted=True; never protected.
	reasonAlreadyEvicted eligibility.Reason = "already_evicted"
	// reasonMinAdmitElapsed: now >= admitted + d.
	reasonMinAdmitElapsed eligibility.Reason = "min_admit_elapsed"
	// ReasonMinAdmitProtected: now < admitted + d.
	ReasonMinAdmitProtected eligibility.Reason = "min_admit_protected"
)
