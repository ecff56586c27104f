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
//     ReasonMinRuntimeProtected, ReasonClockSkew, ReasonUnknownQueue,
//     ReasonQueueUnset, ReasonNoResolver, ReasonInvalidAction (denied).
//   - [ScenarioValidator]: ReasonMinAvailableKept (allowed),
//     ReasonBelowMinAvailable, ReasonInvalidCounts, ReasonConflictingVictims,
//     ReasonDuplicateSubgroup, ReasonUnknownQueue, ReasonQueueUnset,
//     ReasonNoResolver, ReasonInvalidAction (rejected; ReasonInvalidCounts,
//     ReasonConflictingVictims and ReasonDuplicateSubgroup are declared with
//     the validator).
//   - [Nominator]: ReasonNominated; the skip reasons of KAI-Scheduler's
//     expected-runtime plugin (ReasonNotRunning, ReasonNotPreemptible,
//     ReasonInvalidDuration, ReasonMissingStart, ReasonClockSkew,
//     ReasonInvalidNotBefore, ReasonCooldown, ReasonMinRuntimeProtected),
//     and tenure's ReasonInvalidAction and ReasonInvalidLastCheckpoint;
//     and the two silent outcomes ReasonNotConfigured and ReasonNotExceeded,
//     which are neither nominations nor skips (see [Reason.Silent]).
//   - [PreemptionConfig.Classify]: one reason per [CandidateClass], with the
//     class's label.
//   - [AdmitProtection.Check] (Kueue KEP-9876): ReasonNoMinAdmit,
//     ReasonNotAdmitted, ReasonAlreadyEvicted, ReasonMinAdmitElapsed
//     (allowed); ReasonMinAdmitProtected (denied).
//   - [PreemptorDelay.Check]: ReasonNoPreemptorDelay, ReasonPreemptorWaited
//     (allowed); ReasonPreemptorDelay, ReasonQueuedUnknown (denied).
//   - [EvictionBudget.Check]: ReasonNoEvictionBudget,
//     ReasonWithinEvictionBudget, ReasonInvalidEvictionRecord (allowed: an
//     invalid record counts as no eviction); ReasonEvictionBudgetExhausted
//     (denied).
type Reason string

// The reasons. Each constant's value is its label.
const (
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
	// ReasonUnknownQueue: the victim's queue (or, where it matters, the
	// preemptor's) is a name or an ID the resolver's tree does not have;
	// the filter denies and the scenario validator rejects (they never
	// drop protection on a typo or a stale ID).
	ReasonUnknownQueue Reason = "unknown_queue"
	// ReasonQueueUnset: the victim's queue (or, where it matters, the
	// preemptor's) is queuetree.None, the zero ID: the field was never
	// set. The filter denies and the scenario validator rejects, fail
	// closed, unless their FailOpen field is set.
	ReasonQueueUnset Reason = "queue_unset"
	// ReasonNoResolver: the min-runtime filter or scenario validator has
	// no Resolver (a zero value whose Resolver was forgotten), so no
	// protection can be known; denied unless FailOpen is set.
	ReasonNoResolver Reason = "no_resolver"
	// ReasonInvalidAction: the runtime.Action given is neither
	// runtime.ActionPreempt nor runtime.ActionReclaim (a value converted
	// from a wider integer, say), so no min-runtime applies to it and the
	// victim's protection cannot be known. The filter denies, the scenario
	// validator rejects and the nominator (given a Resolver, for its
	// MinRuntimeAction) skips, with no Until, whatever the other inputs
	// and even when FailOpen is set: FailOpen excuses a job's missing or
	// unknown queue, while an invalid action is the caller's programming
	// error, which must never cost a job its protection.
	ReasonInvalidAction Reason = "invalid_action"

	// ReasonCooldown: now < requeue-not-before.
	ReasonCooldown Reason = "cooldown"
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
// reason tenure declares is valid; a [Counter] counts an event with an
// invalid one under [ReasonInvalid], so a garbage reason from an
// embedder's filter never becomes a metric label.
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
