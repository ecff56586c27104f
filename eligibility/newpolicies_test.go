package eligibility_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/runtime"
)

var np0 = time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)

func npAt(sec int) time.Time { return np0.Add(time.Duration(sec) * time.Second) }

// TestAdmitProtectionBoundaries derives each case from KEP-9876's text:
// protected while now - admitted < minAdmitDuration, eligible at exactly
// minAdmitDuration; evicted never protected; not admitted not protected;
// within-ClusterQueue preemption unaffected; an unset rule protects nothing.
func TestAdmitProtectionBoundaries(t *testing.T) {
	hour, ten := runtime.Explicit(time.Hour), runtime.Explicit(10*time.Minute)
	both := eligibility.AdmitProtection{FairSharing: hour, ReclaimWithinCohort: ten}
	adm := npAt(0)
	tests := []struct {
		name     string
		cfg      eligibility.AdmitProtection
		kind     eligibility.CohortPreemption
		admitted time.Time
		evicted  bool
		now      time.Time
		want     eligibility.Decision
	}{
		{"fair sharing, 1ns before", both, eligibility.InCohortFairSharing, adm, false, adm.Add(time.Hour - 1),
			eligibility.Decision{Reason: eligibility.ReasonMinAdmitProtected, Until: adm.Add(time.Hour)}},
		{"fair sharing, exactly d: eligible", both, eligibility.InCohortFairSharing, adm, false, adm.Add(time.Hour),
			eligibility.Decision{Allowed: true, Reason: eligibility.ReasonMinAdmitElapsed}},
		{"reclamation uses reclaimWithinCohort", both, eligibility.InCohortReclamation, adm, false, adm.Add(10*time.Minute - 1),
			eligibility.Decision{Reason: eligibility.ReasonMinAdmitProtected, Until: adm.Add(10 * time.Minute)}},
		{"reclaim while borrowing uses reclaimWithinCohort", both, eligibility.InCohortReclaimWhileBorrowing, adm, false, adm.Add(10 * time.Minute),
			eligibility.Decision{Allowed: true, Reason: eligibility.ReasonMinAdmitElapsed}},
		{"evicted is never protected", both, eligibility.InCohortFairSharing, adm, true, adm,
			eligibility.Decision{Allowed: true, Reason: eligibility.ReasonAlreadyEvicted}},
		{"not admitted is not protected", both, eligibility.InCohortFairSharing, time.Time{}, false, adm,
			eligibility.Decision{Allowed: true, Reason: eligibility.ReasonNotAdmitted}},
		{"in ClusterQueue unaffected", both, eligibility.InClusterQueue, adm, false, adm,
			eligibility.Decision{Allowed: true, Reason: eligibility.ReasonNoMinAdmit}},
		{"only fairSharing set: reclaim unaffected", eligibility.AdmitProtection{FairSharing: hour}, eligibility.InCohortReclamation, adm, false, adm,
			eligibility.Decision{Allowed: true, Reason: eligibility.ReasonNoMinAdmit}},
		{"zero value protects nothing", eligibility.AdmitProtection{}, eligibility.InCohortFairSharing, adm, false, adm,
			eligibility.Decision{Allowed: true, Reason: eligibility.ReasonNoMinAdmit}},
		{"admitted in the future: protected from it", both, eligibility.InCohortFairSharing, adm.Add(time.Hour), false, adm,
			eligibility.Decision{Reason: eligibility.ReasonMinAdmitProtected, Until: adm.Add(2 * time.Hour)}},
		{"unknown kind: the longest rule", both, eligibility.CohortPreemption(9), adm, false, adm.Add(30 * time.Minute),
			eligibility.Decision{Reason: eligibility.ReasonMinAdmitProtected, Until: adm.Add(time.Hour)}},
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
		cfg eligibility.AdmitProtection
		ok  bool
	}{
		{eligibility.AdmitProtection{}, true},
		{eligibility.AdmitProtection{FairSharing: runtime.Explicit(time.Second)}, true},
		{eligibility.AdmitProtection{ReclaimWithinCohort: runtime.Explicit(1)}, true},
		{eligibility.AdmitProtection{FairSharing: runtime.Explicit(0)}, false},
		{eligibility.AdmitProtection{ReclaimWithinCohort: runtime.Explicit(-time.Second)}, false},
	} {
		if err := tt.cfg.Validate(); (err == nil) != tt.ok {
			t.Errorf("Validate(%+v) = %v, want ok %v", tt.cfg, err, tt.ok)
		}
	}
	err := eligibility.AdmitProtection{FairSharing: runtime.Explicit(0), ReclaimWithinCohort: runtime.Explicit(-1)}.Validate()
	if err == nil || !strings.Contains(err.Error(), "fairSharing") || !strings.Contains(err.Error(), "reclaimWithinCohort") {
		t.Errorf("want both rules named, got %v", err)
	}
}

// TestKueuePreemptionProtectionJSON: Kueue's spelling both ways, exact
// keys, and the conversion.
func TestKueuePreemptionProtectionJSON(t *testing.T) {
	in := `{"fairSharing":{"minAdmitDuration":"1h0m0s"},"reclaimWithinCohort":{"minAdmitDuration":"10m0s"}}`
	var k eligibility.KueuePreemptionProtection
	if err := json.Unmarshal([]byte(in), &k); err != nil {
		t.Fatal(err)
	}
	c, err := k.AdmitProtection()
	if err != nil {
		t.Fatal(err)
	}
	want := eligibility.AdmitProtection{FairSharing: runtime.Explicit(time.Hour), ReclaimWithinCohort: runtime.Explicit(10 * time.Minute)}
	if diff := cmp.Diff(want, c); diff != "" {
		t.Errorf("Config (-want +got):\n%s", diff)
	}
	out, err := json.Marshal(c.Kueue())
	if err != nil || string(out) != in {
		t.Errorf("Marshal = %s, %v; want %s", out, err, in)
	}
	for _, bad := range []string{
		`{"FairSharing":{"minAdmitDuration":"1h"}}`,
		`{"fairSharing":{"MinAdmitDuration":"1h"}}`,
		`{"fairSharing":{"minAdmitDuration":"1h","x":1}}`,
		`{"fairSharing":{"minAdmitDuration":"soon"}}`,
		`[]`,
	} {
		var k eligibility.KueuePreemptionProtection
		if err := json.Unmarshal([]byte(bad), &k); err == nil {
			t.Errorf("Unmarshal(%s) accepted", bad)
		}
	}
	if _, err := (eligibility.KueuePreemptionProtection{FairSharing: &eligibility.KueuePreemptionProtectionPolicy{MinAdmitDuration: runtime.Explicit(0)}}).AdmitProtection(); err == nil {
		t.Error("Config accepted minAdmitDuration 0")
	}
}

// TestKueueWithinClusterQueueJSON: KEP-8522's shape both ways.
func TestKueueWithinClusterQueueJSON(t *testing.T) {
	in := `{"withinClusterQueue":"LowerOrNewerEqualPriority","withinClusterQueueConfig":{"minAdmitDuration":"4h0m0s"}}`
	var k eligibility.KueueWithinClusterQueue
	if err := json.Unmarshal([]byte(in), &k); err != nil {
		t.Fatal(err)
	}
	c, err := k.PreemptionConfig()
	if err != nil || c.Policy != eligibility.PreemptionLowerOrNewerEqualPriority || *c.MinAdmitDuration != 4*time.Hour {
		t.Fatalf("Config = %+v, %v", c, err)
	}
	out, _ := json.Marshal(c.Kueue())
	if string(out) != in {
		t.Errorf("Marshal = %s, want %s", out, in)
	}
	for _, bad := range []string{`{"WithinClusterQueue":"Never"}`, `{"withinClusterQueueConfig":{"minAdmit":"4h"}}`} {
		if err := json.Unmarshal([]byte(bad), &k); err == nil || !strings.Contains(err.Error(), "unknown key") {
			t.Errorf("Unmarshal(%s) = %v, want an unknown-key error", bad, err)
		}
	}
}

// TestPreemptorDelayBoundaries: denied while now < queued + D, allowed at
// exactly queued + D.
func TestPreemptorDelayBoundaries(t *testing.T) {
	d := eligibility.PreemptorDelay{Delay: 30 * time.Second}
	q := npAt(0)
	for _, tt := range []struct {
		name   string
		d      eligibility.PreemptorDelay
		queued time.Time
		now    time.Time
		want   eligibility.Decision
	}{
		{"1ns before", d, q, q.Add(30*time.Second - 1), eligibility.Decision{Reason: eligibility.ReasonPreemptorDelay, Until: q.Add(30 * time.Second)}},
		{"exactly D", d, q, q.Add(30 * time.Second), eligibility.Decision{Allowed: true, Reason: eligibility.ReasonPreemptorWaited}},
		{"just queued", d, q, q, eligibility.Decision{Reason: eligibility.ReasonPreemptorDelay, Until: q.Add(30 * time.Second)}},
		{"queued unknown", d, time.Time{}, q, eligibility.Decision{Reason: eligibility.ReasonQueuedUnknown}},
		{"no delay", eligibility.PreemptorDelay{}, q, q, eligibility.Decision{Allowed: true, Reason: eligibility.ReasonNoPreemptorDelay}},
		{"no delay, queued unknown", eligibility.PreemptorDelay{}, time.Time{}, q, eligibility.Decision{Allowed: true, Reason: eligibility.ReasonNoPreemptorDelay}},
	} {
		if got := tt.d.Check(tt.queued, tt.now); got != tt.want {
			t.Errorf("%s: Check = %v, want %v", tt.name, got, tt.want)
		}
	}
	if (eligibility.PreemptorDelay{Delay: -1}).Validate() == nil || (eligibility.PreemptorDelay{}).Validate() != nil {
		t.Error("Validate: want negative rejected, zero accepted")
	}
}

// TestEvictionBudgetBoundaries: an eviction at t counts while now < t + W;
// with N counting the budget is exhausted until the N-th most recent
// leaves the window.
func TestEvictionBudgetBoundaries(t *testing.T) {
	b := eligibility.EvictionBudget{Max: 2, Window: time.Hour}
	rec := eligibility.FormatEvictionRecord([]time.Time{npAt(0), npAt(600)})
	for _, tt := range []struct {
		name   string
		b      eligibility.EvictionBudget
		record string
		now    time.Time
		want   eligibility.Decision
	}{
		{"two in window", b, rec, npAt(3599), eligibility.Decision{Reason: eligibility.ReasonEvictionBudgetExhausted, Until: npAt(3600)}},
		{"oldest leaves at exactly t+W", b, rec, npAt(3600), eligibility.Decision{Allowed: true, Reason: eligibility.ReasonWithinEvictionBudget}},
		{"one in record", b, eligibility.FormatEvictionRecord([]time.Time{npAt(0)}), npAt(1), eligibility.Decision{Allowed: true, Reason: eligibility.ReasonWithinEvictionBudget}},
		{"empty record", b, "", npAt(0), eligibility.Decision{Allowed: true, Reason: eligibility.ReasonWithinEvictionBudget}},
		{"max 1: the most recent decides", eligibility.EvictionBudget{Max: 1, Window: time.Hour}, rec, npAt(4199), eligibility.Decision{Reason: eligibility.ReasonEvictionBudgetExhausted, Until: npAt(4200)}},
		{"longer record than Max", b, eligibility.FormatEvictionRecord([]time.Time{npAt(-9000), npAt(0), npAt(600)}), npAt(3599), eligibility.Decision{Reason: eligibility.ReasonEvictionBudgetExhausted, Until: npAt(3600)}},
		{"unparsable", b, "yesterday", npAt(0), eligibility.Decision{Allowed: true, Reason: eligibility.ReasonInvalidEvictionRecord}},
		{"not oldest first", b, "2026-03-02T12:10:00Z,2026-03-02T12:00:00Z", npAt(0), eligibility.Decision{Allowed: true, Reason: eligibility.ReasonInvalidEvictionRecord}},
		{"no budget", eligibility.EvictionBudget{}, "yesterday", npAt(0), eligibility.Decision{Allowed: true, Reason: eligibility.ReasonNoEvictionBudget}},
	} {
		if got := tt.b.Check(tt.record, tt.now); got != tt.want {
			t.Errorf("%s: Check = %v, want %v", tt.name, got, tt.want)
		}
	}
	j := eligibility.Job{Annotations: map[string]string{eligibility.AnnotationEvictions: rec}}
	if got := b.CheckJob(&j, npAt(0)); got.Allowed {
		t.Errorf("CheckJob = %v, want exhausted", got)
	}
}

// TestEvictionBudgetRecord: Record keeps the evictions still counting plus
// this one, at most Max, oldest first, rounded up to the second.
func TestEvictionBudgetRecord(t *testing.T) {
	b := eligibility.EvictionBudget{Max: 2, Window: time.Hour}
	r := b.Record("", npAt(0).Add(time.Millisecond))
	if r != "2026-03-02T12:00:01Z" {
		t.Errorf("first record %q", r)
	}
	r = b.Record(r, npAt(100))
	r = b.Record(r, npAt(200))
	if want := "2026-03-02T12:01:40Z,2026-03-02T12:03:20Z"; r != want {
		t.Errorf("record %q, want %q (the two most recent)", r, want)
	}
	// An eviction exactly W old no longer counts and is dropped.
	if got, want := b.Record("2026-03-02T12:00:00Z", npAt(3600)), "2026-03-02T13:00:00Z"; got != want {
		t.Errorf("record %q, want %q", got, want)
	}
	if got := b.Record("garbage", npAt(0)); got != "2026-03-02T12:00:00Z" {
		t.Errorf("record after garbage %q", got)
	}
	if got := (eligibility.EvictionBudget{}).Record("x", npAt(0)); got != "x" {
		t.Errorf("no budget: Record changed the value to %q", got)
	}
	for _, bad := range []eligibility.EvictionBudget{{Max: -1, Window: time.Hour}, {Max: 1}, {Max: eligibility.MaxEvictionBudget + 1, Window: 1}, {Window: -1}} {
		if bad.Validate() == nil {
			t.Errorf("Validate(%+v) accepted", bad)
		}
	}
}

// TestEvictionBudgetOracle: Check equals counting the record's evictions
// with now < t + W, for records Record wrote.
func TestEvictionBudgetOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := eligibility.EvictionBudget{Max: rapid.IntRange(1, 4).Draw(t, "max"), Window: time.Duration(rapid.IntRange(1, 5).Draw(t, "w")) * time.Minute}
		var rec string
		now := np0
		for i, n := 0, rapid.IntRange(0, 8).Draw(t, "n"); i < n; i++ {
			now = now.Add(time.Duration(rapid.IntRange(0, 240).Draw(t, "step")) * time.Second)
			rec = b.Record(rec, now)
		}
		now = now.Add(time.Duration(rapid.IntRange(0, 400).Draw(t, "later")) * time.Second)
		ts, err := eligibility.ParseEvictionRecord(rec)
		if err != nil {
			t.Fatal(err)
		}
		var counting []time.Time
		for _, x := range ts {
			if now.Before(x.Add(b.Window)) {
				counting = append(counting, x)
			}
		}
		got := b.Check(rec, now)
		if over := len(counting) >= b.Max; got.Allowed == over {
			t.Fatalf("record %q at %v: %d count, Max %d, got %v", rec, now, len(counting), b.Max, got)
		}
		if !got.Allowed && !got.Until.Equal(counting[len(counting)-b.Max].Add(b.Window)) {
			t.Fatalf("Until %v", got.Until)
		}
	})
}

// FuzzEvictionRecord: Check never panics, agrees with ParseEvictionRecord
// on validity, and a parsed record formats back to one that parses.
func FuzzEvictionRecord(f *testing.F) {
	for _, s := range []string{"", "2026-03-02T12:00:00Z", "2026-03-02T12:00:00Z,2026-03-02T12:10:00Z", ",", "x", "2026-03-02T12:00:00.5+01:00"} {
		f.Add(s)
	}
	b := eligibility.EvictionBudget{Max: 3, Window: time.Hour}
	f.Fuzz(func(t *testing.T, s string) {
		d := b.Check(s, np0)
		ts, err := eligibility.ParseEvictionRecord(s)
		future := err == nil && len(ts) > 0 && ts[len(ts)-1].After(np0.Add(b.Window+time.Second))
		if (err != nil || future) != (d.Reason == eligibility.ReasonInvalidEvictionRecord) || (d.Reason == eligibility.ReasonInvalidEvictionRecord && !d.Allowed) {
			t.Fatalf("%q: Parse error %v, Check %v", s, err, d)
		}
		if err == nil {
			if _, err := eligibility.ParseEvictionRecord(eligibility.FormatEvictionRecord(ts)); err != nil && len(ts) > 0 && ts[0].Year() >= 0 && ts[len(ts)-1].Year() <= 9999 {
				t.Fatalf("%q: formatted record does not parse: %v", s, err)
			}
		}
		_ = b.Record(s, np0)
	})
}

// FuzzKueuePreemptionProtectionJSON: the decoder never panics, and what it
// accepts marshals back to JSON it accepts with the same value.
func FuzzKueuePreemptionProtectionJSON(f *testing.F) {
	for _, s := range []string{`{}`, `null`, `{"fairSharing":{"minAdmitDuration":"1h"}}`, `{"reclaimWithinCohort":{}}`, `{"fairSharing":null}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var k eligibility.KueuePreemptionProtection
		if json.Unmarshal([]byte(s), &k) != nil {
			return
		}
		out, err := json.Marshal(k)
		if err != nil {
			t.Fatalf("%q: Marshal: %v", s, err)
		}
		var back eligibility.KueuePreemptionProtection
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("%q → %s: %v", s, out, err)
		}
		if diff := cmp.Diff(k, back); diff != "" {
			t.Fatalf("%q → %s: round trip (-want +got):\n%s", s, out, diff)
		}
	})
}
