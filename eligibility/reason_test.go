package eligibility_test

import (
	"testing"

	"github.com/tenurepolicy/tenure/eligibility"
)

// The label values are part of the contract (seed 000's metric labels).
func TestReasonStrings(t *testing.T) {
	want := map[eligibility.Reason]string{
		eligibility.ReasonNone:                "none",
		eligibility.ReasonNotProtected:        "not_protected",
		eligibility.ReasonNoMinRuntime:        "no_min_runtime",
		eligibility.ReasonElasticDeferred:     "elastic_deferred",
		eligibility.ReasonMissingStart:        "missing_start",
		eligibility.ReasonClockSkew:           "clock_skew",
		eligibility.ReasonMinRuntimeProtected: "minruntime_protected",
		eligibility.ReasonMinAvailableKept:    "min_available_kept",
		eligibility.ReasonBelowMinAvailable:   "below_min_available",
		eligibility.ReasonNominated:           "nominated",
		eligibility.ReasonNotRunning:          "not_running",
		eligibility.ReasonNotPreemptible:      "not_preemptible",
		eligibility.ReasonNotConfigured:       "not_configured",
		eligibility.ReasonInvalidDuration:     "invalid_duration",
		eligibility.ReasonNotExceeded:         "not_exceeded",
		eligibility.ReasonInvalidNotBefore:    "invalid_not_before",
		eligibility.ReasonCooldown:            "cooldown",
	}
	seen := map[string]bool{}
	for r := eligibility.Reason(0); r.Valid(); r++ {
		s := r.String()
		if w, ok := want[r]; !ok || w != s {
			t.Errorf("Reason(%d).String() = %q, want %q", r, s, w)
		}
		if seen[s] {
			t.Errorf("duplicate label %q", s)
		}
		seen[s] = true
		if back, ok := eligibility.ParseReason(s); !ok || back != r {
			t.Errorf("ParseReason(%q) = %v, %v", s, back, ok)
		}
	}
	if len(seen) != len(want) {
		t.Errorf("%d reasons, want %d", len(seen), len(want))
	}
	if s := eligibility.Reason(200).String(); s != "invalid" {
		t.Errorf("out of range: %q", s)
	}
	if _, ok := eligibility.ParseReason("bogus"); ok {
		t.Error("ParseReason accepted bogus")
	}
	for r := eligibility.Reason(0); r.Valid(); r++ {
		silent := r == eligibility.ReasonNotConfigured || r == eligibility.ReasonNotExceeded
		if r.Silent() != silent {
			t.Errorf("%v.Silent() = %v", r, r.Silent())
		}
	}
}

func TestJobHelpers(t *testing.T) {
	j := eligibility.Job{Subgroups: []eligibility.Subgroup{{Name: "a", MinAvailable: 2, Active: 2}, {Name: "b", MinAvailable: 1, Active: 2}}}
	if !j.IsElastic() || j.Subgroups[0].Elastic() || !j.Subgroups[1].Elastic() {
		t.Error("elastic detection")
	}
	if j.ActiveTasks() != 4 || j.SubgroupIndex("b") != 1 || j.SubgroupIndex("c") != -1 {
		t.Error("helpers")
	}
	var zero eligibility.Job
	if zero.IsElastic() || zero.ActiveTasks() != 0 {
		t.Error("zero job")
	}
	// MinAvailable == Active is a gang at its minimum; MinAvailable > Active
	// (already below its minimum) is not elastic either.
	below := eligibility.Job{Subgroups: []eligibility.Subgroup{{MinAvailable: 3, Active: 1}}}
	if below.IsElastic() {
		t.Error("below minimum is not elastic")
	}
}
