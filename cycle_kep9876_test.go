package tenure_test

import (
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure"
	"github.com/tenurepolicy/tenure/eligibility/admitprotect"
)

// kep9876Rule draws one minAdmitDuration rule: unset, or 1 to 5 minutes.
func kep9876Rule(t *rapid.T, label string) *time.Duration {
	if rapid.Bool().Draw(t, label+".unset") {
		return nil
	}
	d := time.Duration(rapid.IntRange(1, 5).Draw(t, label)) * time.Minute
	return &d
}

// kep9876Oracle is Kueue's protection check written out from PR #12996
// (withinProtectionWindow, ProtectionSkipTracker): the rule of the kind (an
// unknown kind: the longest set, tenure's fail-safe); a victim evicted or
// not admitted is never protected; one admitted at admitted is protected
// while now - admitted < d, and its protection expires at admitted + d.
func kep9876Oracle(c admitprotect.Protection, k admitprotect.Kind, admitted time.Time, evicted bool, now time.Time) (protected bool, expiry time.Time) {
	var rule *time.Duration
	switch k {
	case admitprotect.InClusterQueue:
	case admitprotect.InCohortFairSharing:
		rule = c.FairSharing
	case admitprotect.InCohortReclamation, admitprotect.InCohortReclaimWhileBorrowing:
		rule = c.ReclaimWithinCohort
	default:
		for _, r := range []*time.Duration{c.FairSharing, c.ReclaimWithinCohort} {
			if r != nil && (rule == nil || *r > *rule) {
				rule = r
			}
		}
	}
	if rule == nil || evicted || admitted.IsZero() || now.Sub(admitted) >= *rule {
		return false, time.Time{}
	}
	return true, admitted.Add(*rule)
}

// TestCycleWakeIsKEP9876Retry: in a cycle whose only decisions are
// CheckAdmitted, Wake is exactly the earliest protection expiry among the
// denied victims (Kueue's ProtectionSkipTracker: the instant it retries
// the preemptor), and zero when none was denied; in a cycle at that
// instant, the victim whose protection expired first is allowed.
func TestCycleWakeIsKEP9876Retry(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := tenure.Config{Queues: []tenure.Queue{{Name: "q"}},
			Protection: admitprotect.Protection{FairSharing: kep9876Rule(t, "fairSharing"), ReclaimWithinCohort: kep9876Rule(t, "reclaim")}}
		p, err := tenure.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		now := t0
		c := p.BeginAt(now)
		var earliest time.Time
		type victim struct {
			kind     admitprotect.Kind
			admitted time.Time
			evicted  bool
		}
		var first victim
		for i, n := 0, rapid.IntRange(0, 8).Draw(t, "victims"); i < n; i++ {
			v := victim{kind: admitprotect.Kind(rapid.IntRange(0, 4).Draw(t, "kind")), evicted: rapid.Bool().Draw(t, "evicted")}
			if !rapid.Bool().Draw(t, "notAdmitted") {
				v.admitted = now.Add(-time.Duration(rapid.Int64Range(-int64(time.Second), int64(6*time.Minute)).Draw(t, "ago")))
			}
			d := c.CheckAdmitted(v.kind, v.admitted, v.evicted)
			protected, expiry := kep9876Oracle(cfg.Protection, v.kind, v.admitted, v.evicted, now)
			if d.Allowed == protected || (protected && !d.Until.Equal(expiry)) {
				t.Fatalf("CheckAdmitted(%v, %v, %v) = %v; Kueue: protected %v until %v", v.kind, v.admitted, v.evicted, d, protected, expiry)
			}
			if protected && (earliest.IsZero() || expiry.Before(earliest)) {
				earliest, first = expiry, v
			}
		}
		if !c.Wake().Equal(earliest) {
			t.Fatalf("Wake = %v, want the earliest protection expiry %v", c.Wake(), earliest)
		}
		if !earliest.IsZero() {
			if d := p.BeginAt(earliest).CheckAdmitted(first.kind, first.admitted, first.evicted); !d.Allowed {
				t.Fatalf("at the retry instant %v: %v, want allowed", earliest, d)
			}
		}
	})
}
