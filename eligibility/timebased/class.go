package timebased

import "github.com/tenurepolicy/tenure/eligibility"

// class says why a candidate is or is not preemptible; a [Decision]'s
// Reason is its label, given in quotes below (a stable metric label).
type class uint8

const (
	// classNotAllowed ("not_allowed", the zero value): the policy forbids
	// it (Never; an equal priority under LowerPriority; an unknown policy).
	classNotAllowed class = iota
	// classHigherPriority ("higher_priority"): the candidate outranks the
	// preemptor.
	classHigherPriority
	// classProtected ("protected"): equal priority, not newer than the
	// preemptor and not (yet) past MinAdmitDuration.
	classProtected
	// classUnknownReservation ("unknown_reservation"): equal priority, not
	// newer, and the timestamps that would decide are zero; not
	// preemptible.
	classUnknownReservation
	// classLowerPriority ("lower_priority"): preemptible, strictly lower
	// priority.
	classLowerPriority
	// classExpired ("expired"): preemptible, equal priority, reserved for
	// strictly longer than MinAdmitDuration (Kueue's
	// InClusterQueueTimeBased).
	classExpired
	// classNewer ("newer"): preemptible, equal priority, queued after the
	// preemptor, not expired.
	classNewer
	// classUnknown is the class of a Reason that is no class's label (a
	// decision built by hand): not preemptible, ordered after the others.
	classUnknown
)

var candidateClassNames = [...]string{
	"not_allowed", "higher_priority", "protected", "unknown_reservation",
	"lower_priority", "expired", "newer",
}

// preemptible reports whether the class allows preemption: lower
// priority, expired or newer (a [Decision]'s Allowed).
func (c class) preemptible() bool {
	return c == classLowerPriority || c == classExpired || c == classNewer
}

// reason returns the class's label as an [eligibility.Reason], a
// [Decision]'s Reason. No allocation.
func (c class) reason() eligibility.Reason {
	if int(c) < len(candidateClassNames) {
		return eligibility.Reason(candidateClassNames[c])
	}
	return ""
}

// classOf returns the class whose label r is: classNotAllowed for the zero
// Reason (the zero Decision's), classUnknown for any other label. No
// allocation.
func classOf(r eligibility.Reason) class {
	switch r {
	case "", "not_allowed":
		return classNotAllowed
	case "higher_priority":
		return classHigherPriority
	case "protected":
		return classProtected
	case "unknown_reservation":
		return classUnknownReservation
	case "lower_priority":
		return classLowerPriority
	case "expired":
		return classExpired
	case "newer":
		return classNewer
	}
	return classUnknown
}
