package eligibility

// Reason says why a decision came out the way it did. It is a stable label:
// a short snake_case string, used verbatim as a metric label value and in log
// lines, so it may be stored and compared; a label keeps its spelling and
// meaning across releases. It is tenure's one reason type: every package's
// decisions carry a Reason, and each package declares its own reasons as
// Reason constants (minruntime.ReasonNotProtected, the requeue engine's
// "committed", …). The zero Reason ("") means no decision was made.
type Reason string

// The reasons several deciders give. Each constant's value is its label.
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

	// ReasonCooldown: now < requeue-not-before, the gate of a job requeued
	// recently. The nominator skips it; the requeue engine skips such a
	// victim too.
	ReasonCooldown Reason = "cooldown"
)

// String returns the label, or "none" for the zero Reason. No allocation.
func (r Reason) String() string {
	if r == "" {
		return "none"
	}
	return string(r)
}
