package admitprotect_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/admitprotect"
)

var np0 = time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)

func npAt(sec int) time.Time { return np0.Add(time.Duration(sec) * time.Second) }

// TestAdmitProtectionBoundaries derives each case from KEP-9876's text:
// protected while now - admitted < minAdmitDuration, eligible at exactly
// minAdmitDuration; evicted never protected; not admitted not protected;
// within-ClusterQueue preemption unaffected; an unset rule protects nothing.
func TestAdmitProtectionBoundaries(t *testing.T) {
	hour, ten := explicit(time.Hour), explicit(10*time.Minute)
	both := admitprotect.Protection{FairSharing: hour, ReclaimWithinCohort: ten}
	adm := npAt(0)
	tests := []struct {
		name     string
		cfg      admitprotect.Protection
		kind     admitprotect.Kind
		admitted time.Time
		evicted  bool
		now      time.Time
		want     eligibility.Decision
	}{
		{"fair sharing, 1ns before", both, admitprotect.InCohortFairSharing, adm, false, adm.Add(time.Hour - 1),
			eligibility.Decision{Reason: admitprotect.ReasonMinAdmitProtected, Until: adm.Add(time.Hour)}},
		{"fair sharing, exactly d: eligible", both, admitprotect.InCohortFairSharing, adm, false, adm.Add(time.Hour),
			eligibility.Decision{Allowed: true, Reason: eligibility.Reason("min_admit_elapsed")}},
		{"reclamation uses reclaimWithinCohort", both, admitprotect.InCohortReclamation, adm, false, adm.Add(10*time.Minute - 1),
			eligibility.Decision{Reason: admitprotect.ReasonMinAdmitProtected, Until: adm.Add(10 * time.Minute)}},
		{"reclaim while borrowing uses reclaimWithinCohort", both, admitprotect.InCohortReclaimWhileBorrowing, adm, false, adm.Add(10 * time.Minute),
			eligibility.Decision{Allowed: true, Reason: eligibility.Reason("min_admit_elapsed")}},
		{"evicted is never protected", both, admitprotect.InCohortFairSharing, adm, true, adm,
			eligibility.Decision{Allowed: true, Reason: eligibility.Reason("already_evicted")}},
		{"not admitted is not protected", both, admitprotect.InCohortFairSharing, time.Time{}, false, adm,
			eligibility.Decision{Allowed: true, Reason: eligibility.Reason("not_admitted")}},
		{"in ClusterQueue unaffected", both, admitprotect.InClusterQueue, adm, false, adm,
			eligibility.Decision{Allowed: true, Reason: eligibility.Reason("no_min_admit")}},
		{"only fairSharing set: reclaim unaffected", admitprotect.Protection{FairSharing: hour}, admitprotect.InCohortReclamation, adm, false, adm,
			eligibility.Decision{Allowed: true, Reason: eligibility.Reason("no_min_admit")}},
		{"zero value protects nothing", admitprotect.Protection{}, admitprotect.InCohortFairSharing, adm, false, adm,
			eligibility.Decision{Allowed: true, Reason: eligibility.Reason("no_min_admit")}},
		{"admitted in the future: protected from it", both, admitprotect.InCohortFairSharing, adm.Add(time.Hour), false, adm,
			eligibility.Decision{Reason: admitprotect.ReasonMinAdmitProtected, Until: adm.Add(2 * time.Hour)}},
		{"unknown kind: the longest rule", both, admitprotect.Kind(9), adm, false, adm.Add(30 * time.Minute),
			eligibility.Decision{Reason: admitprotect.ReasonMinAdmitProtected, Until: adm.Add(time.Hour)}},
	}
	for _, tt := range tests {
		if got := tt.cfg.Check(tt.kind, tt.admitted, tt.evicted, tt.now); got != tt.want {
			t.Errorf("%s: Check = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestAdmitProtectionValidate: KEP-9876's validation: positive when set,
// nil valid at every level, no 1m floor.
func TestAdmitProtectionValidate(t *testing.T) {
	for _, tt := range []struct {
		cfg admitprotect.Protection
		ok  bool
	}{
		{admitprotect.Protection{}, true},
		{admitprotect.Protection{FairSharing: explicit(time.Second)}, true},
		{admitprotect.Protection{ReclaimWithinCohort: explicit(1)}, true},
		{admitprotect.Protection{FairSharing: explicit(0)}, false},
		{admitprotect.Protection{ReclaimWithinCohort: explicit(-time.Second)}, false},
	} {
		if err := tt.cfg.Validate(); (err == nil) != tt.ok {
			t.Errorf("Validate(%+v) = %v, want ok %v", tt.cfg, err, tt.ok)
		}
	}
	err := admitprotect.Protection{FairSharing: explicit(0), ReclaimWithinCohort: explicit(-1)}.Validate()
	if err == nil || !strings.Contains(err.Error(), "fairSharing") || !strings.Contains(err.Error(), "reclaimWithinCohort") {
		t.Errorf("want both rules named, got %v", err)
	}
}

// TestKueuePreemptionProtectionJSON: Kueue's spelling both ways, exact
// keys, and the validation.
func TestKueuePreemptionProtectionJSON(t *testing.T) {
	in := `{"fairSharing":{"minAdmitDuration":"1h0m0s"},"reclaimWithinCohort":{"minAdmitDuration":"10m0s"}}`
	var c admitprotect.Protection
	if err := json.Unmarshal([]byte(in), &c); err != nil {
		t.Fatal(err)
	}
	want := admitprotect.Protection{FairSharing: explicit(time.Hour), ReclaimWithinCohort: explicit(10 * time.Minute)}
	if diff := cmp.Diff(want, c); diff != "" {
		t.Errorf("Unmarshal (-want +got):\n%s", diff)
	}
	out, err := json.Marshal(c)
	if err != nil || string(out) != in {
		t.Errorf("Marshal = %s, %v; want %s", out, err, in)
	}
	for _, bad := range []string{
		`{"FairSharing":{"minAdmitDuration":"1h"}}`,
		`{"fairSharing":{"MinAdmitDuration":"1h"}}`,
		`{"fairSharing":{"minAdmitDuration":"1h","x":1}}`,
		`{"fairSharing":{"minAdmitDuration":"soon"}}`,
		`{"fairSharing":{"minAdmitDuration":"0s"}}`,
		`[]`,
	} {
		c := want
		if err := json.Unmarshal([]byte(bad), &c); err == nil {
			t.Errorf("Unmarshal(%s) accepted", bad)
		} else if diff := cmp.Diff(want, c); diff != "" {
			t.Errorf("Unmarshal(%s) changed the value on error:\n%s", bad, diff)
		}
	}
}

// FuzzKueuePreemptionProtectionJSON: the decoder never panics, and what it
// accepts is valid and marshals back to JSON it accepts with the same value.
func FuzzKueuePreemptionProtectionJSON(f *testing.F) {
	for _, s := range []string{`{}`, `null`, `{"fairSharing":{"minAdmitDuration":"1h"}}`, `{"reclaimWithinCohort":{}}`, `{"fairSharing":null}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var k admitprotect.Protection
		if json.Unmarshal([]byte(s), &k) != nil {
			return
		}
		if err := k.Validate(); err != nil {
			t.Fatalf("%q: accepted an invalid value: %v", s, err)
		}
		out, err := json.Marshal(k)
		if err != nil {
			t.Fatalf("%q: Marshal: %v", s, err)
		}
		var back admitprotect.Protection
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("%q → %s: %v", s, out, err)
		}
		if diff := cmp.Diff(k, back); diff != "" {
			t.Fatalf("%q → %s: round trip (-want +got):\n%s", s, out, diff)
		}
	})
}

// explicit returns a pointer to d, for a QueueSetting or a MinAdmitDuration.
func explicit(d time.Duration) *time.Duration { return &d }
