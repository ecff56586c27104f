package timebased_test

import (
	"slices"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/timebased"
)

// appendCandidates classifies every candidate for p at now, appends the
// preemptible ones to dst and sorts them into preemption order: what a
// scheduler does with Classify and Sort.
func appendCandidates(dst []timebased.Decision, cfg timebased.Config, p timebased.Request, cands []timebased.Candidate, now time.Time) []timebased.Decision {
	start := len(dst)
	for i := range cands {
		if d := cfg.Classify(p, cands[i], now); d.Allowed {
			dst = append(dst, d)
		}
	}
	timebased.Sort(dst[start:])
	return dst
}

func candidates(cfg timebased.Config, p timebased.Request, cands []timebased.Candidate, now time.Time) []timebased.Decision {
	return appendCandidates(nil, cfg, p, cands, now)
}

// The classes' labels, the Reasons of Classify's decisions as the package
// doc spells them, in the order Compare puts the non-preemptible ones.
const (
	clsNotAllowed         eligibility.Reason = "not_allowed"
	clsHigherPriority     eligibility.Reason = "higher_priority"
	clsProtected          eligibility.Reason = "protected"
	clsUnknownReservation eligibility.Reason = "unknown_reservation"
	clsLowerPriority      eligibility.Reason = "lower_priority"
	clsExpired            eligibility.Reason = "expired"
	clsNewer              eligibility.Reason = "newer"
)

// tbClassLabels are the labels a hand-built decision may carry: every
// class's, the zero Reason (counted as not_allowed) and one that is no
// class's (ordered after every class).
var tbClassLabels = []eligibility.Reason{clsNotAllowed, clsHigherPriority, clsProtected,
	clsUnknownReservation, clsLowerPriority, clsExpired, clsNewer, "", "no_such_class"}

// tbClassIndex is the rank of a label among the classes: the order of the
// constants above, the zero Reason as not_allowed, any other label last.
func tbClassIndex(r eligibility.Reason) int {
	if r == "" {
		return 0
	}
	i := slices.Index(tbClassLabels[:7], r)
	if i < 0 {
		return 7
	}
	return i
}
