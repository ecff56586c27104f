package timebased_test

import (
	"time"

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

// classLabel is the reason label of each class, as the Class constants'
// docs and the reason catalogue spell them.
func classLabel(c timebased.Class) string {
	return [...]string{"not_allowed", "higher_priority", "protected", "unknown_reservation",
		"lower_priority", "expired", "newer"}[c]
}
