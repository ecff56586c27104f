package eligibility

// Reason says why a decision came out the way it did: a stable snake_case
// label (1 to 64 lower-case ASCII letters, digits or '_', starting with a
// letter), used as a metric label value; a label keeps its spelling and
// meaning across releases. Each package declares its reasons as Reason
// constants. The zero Reason means no decision was made.
type Reason string

// The reasons several deciders give. Each constant's value is its label.
const (
	// ReasonMissingStart: the job has no start time: not protected by
	// min-runtime; not nominated.
	ReasonMissingStart Reason = "missing_start"
	// ReasonClockSkew: the job's start is after now: protected until
	// start + d; not nominated.
	ReasonClockSkew Reason = "clock_skew"
	// ReasonMinRuntimeProtected: now < start + d, the job's min-runtime.
	ReasonMinRuntimeProtected Reason = "minruntime_protected"
	// ReasonInvalidAction: the runtime.Action is neither preempt nor
	// reclaim, so no protection can be known: denied, with no Until, even
	// under FailOpen.
	ReasonInvalidAction Reason = "invalid_action"

	// ReasonCooldown: now < requeue-not-before, the gate of a job
	// requeued recently.
	ReasonCooldown Reason = "cooldown"
)

// String returns the label, or "none" for the zero Reason.
func (r Reason) String() string {
	if r == "" {
		return "none"
	}
	return string(r)
}
