package eligibility

// Reason says why a decision came out the way it did. It is a finite enum;
// its String values are stable and are used verbatim as metric label values
// and in log lines, so they may be stored and compared. The numeric values are
// not part of the API: persist the String, not the number.
//
// Each decision uses a subset:
//
//   - [MinRuntimeFilter]: ReasonNotProtected, ReasonNoMinRuntime,
//     ReasonMissingStart, ReasonElasticDeferred (allowed);
//     ReasonMinRuntimeProtected, ReasonClockSkew (denied).
//   - [ScenarioValidator]: ReasonMinAvailableKept (allowed),
//     ReasonBelowMinAvailable (rejected).
//   - [Nominator]: ReasonNominated; the skip reasons of seed 000
//     (ReasonNotRunning, ReasonNotPreemptible, ReasonInvalidDuration,
//     ReasonMissingStart, ReasonClockSkew, ReasonInvalidNotBefore,
//     ReasonCooldown, ReasonMinRuntimeProtected); and the two silent outcomes
//     ReasonNotConfigured and ReasonNotExceeded, which are neither
//     nominations nor skips (see [Reason.Silent]).
type Reason uint8

// The reasons. The comment after each gives its String value.
const (
	// ReasonNone is the zero Reason: no decision was made.
	ReasonNone Reason = iota // "none"

	// ReasonNotProtected: the victim ran its full min-runtime (now >=
	// start + d), so it may be evicted.
	ReasonNotProtected // "not_protected"
	// ReasonNoMinRuntime: the resolved min-runtime is zero ("0s means
	// instantly", seed 001), so the victim is never protected.
	ReasonNoMinRuntime // "no_min_runtime"
	// ReasonElasticDeferred: the victim is still protected but elastic; the
	// per-pair filter allows it and defers the decision to the
	// [ScenarioValidator] (seed 002, phase 4).
	ReasonElasticDeferred // "elastic_deferred"
	// ReasonMissingStart: the job has no start time. The filter allows it
	// (not protected); the nominator skips it.
	ReasonMissingStart // "missing_start"
	// ReasonClockSkew: the job's start is after now. The filter protects it
	// conservatively until start + d; the nominator skips it.
	ReasonClockSkew // "clock_skew"
	// ReasonMinRuntimeProtected: the job has not yet run its min-runtime
	// (now < start + d). The filter denies eviction; the nominator (when
	// given a resolver) skips it.
	ReasonMinRuntimeProtected // "minruntime_protected"

	// ReasonMinAvailableKept: the scenario leaves every subgroup of every
	// still-protected elastic victim with at least MinAvailable active tasks.
	ReasonMinAvailableKept // "min_available_kept"
	// ReasonBelowMinAvailable: the scenario would leave a subgroup of a
	// still-protected elastic victim below MinAvailable.
	ReasonBelowMinAvailable // "below_min_available"

	// ReasonNominated: the job exceeded its expected runtime and passed every
	// gate; it is a requeue candidate.
	ReasonNominated // "nominated"
	// ReasonNotRunning: the job has no active allocated tasks.
	ReasonNotRunning // "not_running"
	// ReasonNotPreemptible: the job is not marked preemptible.
	ReasonNotPreemptible // "not_preemptible"
	// ReasonNotConfigured (silent): the job did not opt in (no
	// expected-runtime annotation). Not a skip; not counted.
	ReasonNotConfigured // "not_configured"
	// ReasonInvalidDuration: the expected-runtime annotation is present but
	// unparsable or not positive.
	ReasonInvalidDuration // "invalid_duration"
	// ReasonNotExceeded (silent): the job has run less than its expected
	// runtime. Not a skip; not counted; Until = start + expected.
	ReasonNotExceeded // "not_exceeded"
	// ReasonInvalidNotBefore: the requeue-not-before annotation is present
	// but unparsable; treated as cooldown (seed 000: "conservatively skips").
	ReasonInvalidNotBefore // "invalid_not_before"
	// ReasonCooldown: now < requeue-not-before.
	ReasonCooldown // "cooldown"

	numReasons // keep last
)

var reasonNames = [numReasons]string{
	ReasonNone:                "none",
	ReasonNotProtected:        "not_protected",
	ReasonNoMinRuntime:        "no_min_runtime",
	ReasonElasticDeferred:     "elastic_deferred",
	ReasonMissingStart:        "missing_start",
	ReasonClockSkew:           "clock_skew",
	ReasonMinRuntimeProtected: "minruntime_protected",
	ReasonMinAvailableKept:    "min_available_kept",
	ReasonBelowMinAvailable:   "below_min_available",
	ReasonNominated:           "nominated",
	ReasonNotRunning:          "not_running",
	ReasonNotPreemptible:      "not_preemptible",
	ReasonNotConfigured:       "not_configured",
	ReasonInvalidDuration:     "invalid_duration",
	ReasonNotExceeded:         "not_exceeded",
	ReasonInvalidNotBefore:    "invalid_not_before",
	ReasonCooldown:            "cooldown",
}

// String returns the reason's stable label value, such as "cooldown". An
// out-of-range value returns "invalid". No allocation.
func (r Reason) String() string {
	if r < numReasons {
		return reasonNames[r]
	}
	return "invalid"
}

// Valid reports whether r is one of the declared reasons.
func (r Reason) Valid() bool { return r < numReasons }

// Silent reports whether r is an outcome the nominator neither reports as a
// skip nor counts: ReasonNotConfigured and ReasonNotExceeded (DESIGN §4.4).
func (r Reason) Silent() bool { return r == ReasonNotConfigured || r == ReasonNotExceeded }

// ParseReason returns the Reason whose String is s.
func ParseReason(s string) (Reason, bool) {
	for i, n := range reasonNames {
		if n == s {
			return Reason(i), true
		}
	}
	return ReasonNone, false
}
