package eligibility

// Reason says why a decision came out the way it did. It is a stable label:
// a short snake_case string, used verbatim as a metric label value and in log
// lines, so it may be stored and compared. It is tenure's one reason type:
// every package's decisions carry a Reason, and packages above eligibility
// declare their own reasons as Reason constants (the requeue engine's
// "committed", "no_fit", …). The zero Reason ("") means no decision was made.
//
// The reasons declared here, by the decision that gives them:
//
//   - [MinRuntimeFilter]: ReasonNotProtected, ReasonNoMinRuntime,
//     ReasonMissingStart, ReasonElasticDeferred (allowed);
//     ReasonMinRuntimeProtected, ReasonClockSkew, ReasonUnknownQueue
//     (denied).
//   - [ScenarioValidator]: ReasonMinAvailableKept (allowed),
//     ReasonBelowMinAvailable, ReasonInvalidCounts, ReasonConflictingVictims
//     (rejected; the last two are declared with the validator).
//   - [Nominator]: ReasonNominated; the skip reasons of KAI-Scheduler's
//     expected-runtime plugin (ReasonNotRunning, ReasonNotPreemptible,
//     ReasonInvalidDuration, ReasonMissingStart, ReasonClockSkew,
//     ReasonInvalidNotBefore, ReasonCooldown, ReasonMinRuntimeProtected),
//     and tenure's ReasonInvalidLastCheckpoint;
//     and the two silent outcomes ReasonNotConfigured and ReasonNotExceeded,
//     which are neither nominations nor skips (see [Reason.Silent]).
//   - [PreemptionConfig.Classify]: one reason per [CandidateClass], with the
//     class's label.
type Reason string

// The reasons. Each constant's value is its label.
const (
	// ReasonNotProtected: the victim ran its full min-runtime (now >=
	// start + d), so it may be evicted.
	ReasonNotProtected Reason = "not_protected"
	// ReasonNoMinRuntime: the resolved min-runtime is zero (KAI-Scheduler's
	// min-runtime plugin: "0s" means instantly evictable), so the victim is
	// never protected.
	ReasonNoMinRuntime Reason = "no_min_runtime"
	// ReasonElasticDeferred: the victim is still protected but elastic; the
	// per-pair filter allows it and defers the decision to the
	// [ScenarioValidator].
	ReasonElasticDeferred Reason = "elastic_deferred"
	// ReasonMissingStart: the job has no start time. The filter allows it
	// (not protected); the nominator skips it.
	ReasonMissingStart Reason = "missing_start"
	// ReasonClockSkew: the job's start is after now. The filter protects it
	// conservatively until start + d; the nominator skips it.
	ReasonClockSkew Reason = "clock_skew"
	// ReasonMinRuntimeProtected: the job has not yet run its min-runtime
	// (now < start + d). The filter denies eviction; the nominator (when
	// given a resolver) skips it.
	ReasonMinRuntimeProtected Reason = "minruntime_protected"
	// ReasonUnknownQueue: a by-name check named a queue the tree does not
	// have; the filter denies (it never drops protection on a typo).
	ReasonUnknownQueue Reason = "unknown_queue"

	// ReasonMinAvailableKept: the scenario leaves every subgroup of every
	// still-protected elastic victim with at least MinAvailable active tasks.
	ReasonMinAvailableKept Reason = "min_available_kept"
	// ReasonBelowMinAvailable: the scenario would leave a subgroup of a
	// still-protected elastic victim below MinAvailable.
	ReasonBelowMinAvailable Reason = "below_min_available"

	// ReasonNominated: the job exceeded its expected runtime and passed every
	// gate; it is a requeue candidate.
	ReasonNominated Reason = "nominated"
	// ReasonNotRunning: the job has no active allocated tasks.
	ReasonNotRunning Reason = "not_running"
	// ReasonNotPreemptible: the job is not marked preemptible.
	ReasonNotPreemptible Reason = "not_preemptible"
	// ReasonNotConfigured (silent): the job did not opt in (no
	// expected-runtime annotation). Not a skip; not counted.
	ReasonNotConfigured Reason = "not_configured"
	// ReasonInvalidDuration: the expected-runtime annotation is present but
	// unparsable or not positive.
	ReasonInvalidDuration Reason = "invalid_duration"
	// ReasonNotExceeded (silent): the job has run less than its expected
	// runtime. Not a skip; not counted; Until = start + expected.
	ReasonNotExceeded Reason = "not_exceeded"
	// ReasonInvalidNotBefore: the requeue-not-before annotation is present
	// but unparsable; treated as a cooldown (KAI-Scheduler's plugin skips
	// such a job conservatively).
	ReasonInvalidNotBefore Reason = "invalid_not_before"
	// ReasonCooldown: now < requeue-not-before.
	ReasonCooldown Reason = "cooldown"
	// ReasonInvalidLastCheckpoint: the last-checkpoint-time annotation is
	// present but unparsable, so what a requeue would cost is unknown; the
	// nominator's last check, so it is given only to a job that would
	// otherwise be nominated.
	ReasonInvalidLastCheckpoint Reason = "invalid_last_checkpoint"
)

// String returns the label, or "none" for the zero Reason. No allocation.
func (r Reason) String() string {
	if r == "" {
		return "none"
	}
	return string(r)
}

// Valid reports whether r is a well-formed label: 1 to 64 characters, each a
// lower-case ASCII letter, a digit or '_', starting with a letter. Every
// reason tenure declares is valid; a [Counter] ignores invalid ones, so a
// garbage reason from an embedder's filter never becomes a metric label.
func (r Reason) Valid() bool {
	if len(r) == 0 || len(r) > 64 || r[0] < 'a' || r[0] > 'z' {
		return false
	}
	for i := 1; i < len(r); i++ {
		c := r[i]
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}

// Silent reports whether r is an outcome the nominator neither reports as a
// skip nor counts: ReasonNotConfigured and ReasonNotExceeded.
func (r Reason) Silent() bool { return r == ReasonNotConfigured || r == ReasonNotExceeded }
