package policies

import (
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/timebased"
	"github.com/tenurepolicy/tenure/queuetree"
)

var t0 = time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)

// newTest builds the named policy on one team per class with be=5m
// (preempt and reclaim) and a preempt min-runtime of 1m for be-a, and
// returns it with the IDs of be-a and ls-a.
func newTest(t *testing.T, name string) (p *Policy, beA, lsA queuetree.ID) {
	t.Helper()
	set := Settings{
		MinRuntime:        []QueueDuration{{"be", 5 * time.Minute}},
		PreemptMinRuntime: []QueueDuration{{"be-a", time.Minute}},
		MinAdmit:          2 * time.Hour,
	}
	p, err := New(name, TenureConfig(1, set), set)
	if err != nil {
		t.Fatal(err)
	}
	if beA, err = p.Tenure.QueueID("be-a"); err != nil {
		t.Fatal(err)
	}
	if lsA, err = p.Tenure.QueueID("ls-a"); err != nil {
		t.Fatal(err)
	}
	return p, beA, lsA
}

// MayEvict goes through Cycle.CheckVictim: a victim started at t0 in be-a
// is protected from a reclaim (an LS job) while now < t0+5m and from a
// preempt (a job of be-a) while now < t0+1m, evictable at exactly those
// instants, and the denial names the instant. Without min-runtime
// (priority) nothing is protected.
func TestMayEvictBoundaries(t *testing.T) {
	p, beA, lsA := newTest(t, "minruntime")
	victim := &eligibility.Job{ID: "v", Queue: beA, Running: true, Preemptible: true, Start: t0}
	for _, tc := range []struct {
		name      string
		sameQueue bool
		pre       queuetree.ID
		at        time.Duration
		ok        bool
		until     time.Time
	}{
		{"reclaim before", false, lsA, 5*time.Minute - time.Second, false, t0.Add(5 * time.Minute)},
		{"reclaim at expiry", false, lsA, 5 * time.Minute, true, time.Time{}},
		{"preempt before", true, beA, time.Minute - time.Second, false, t0.Add(time.Minute)},
		{"preempt at expiry", true, beA, time.Minute, true, time.Time{}},
	} {
		c := p.Tenure.BeginAt(t0.Add(tc.at))
		ok, deferred, until := p.MayEvict(c, tc.sameQueue, tc.pre, victim)
		if ok != tc.ok || deferred || !until.Equal(tc.until) {
			t.Errorf("%s: ok %v deferred %v until %v; want %v false %v", tc.name, ok, deferred, until, tc.ok, tc.until)
		}
		if !ok && !c.Wake().Equal(tc.until) {
			t.Errorf("%s: Cycle.Wake %v, want %v", tc.name, c.Wake(), tc.until)
		}
	}
	plain, _, lsA2 := newTest(t, "priority")
	if ok, _, _ := plain.MayEvict(plain.Tenure.BeginAt(t0), false, lsA2, victim); !ok {
		t.Error("priority: a victim is protected")
	}
}

// The candidate rule: plain priority never allows an equal priority; the
// time-based policy allows an equal-priority candidate once it has held
// its reservation for more than minAdmit (not at exactly 2h), or when it
// is newer than the preemptor (reserved after the preemptor's queue-order
// timestamp), unless the newer rule is off (no timestamp in the request).
func TestClassify(t *testing.T) {
	plain, _, _ := newTest(t, "priority")
	tb, _, _ := newTest(t, "timebased")
	cand := timebased.Candidate{ID: "v", Priority: 2, Reserved: t0, Queued: t0}
	for _, tc := range []struct {
		name string
		p    *Policy
		req  timebased.Request
		at   time.Duration
		want bool
	}{
		{"priority, equal", plain, plain.Request(2, t0.Add(-time.Hour)), 3 * time.Hour, false},
		{"priority, higher", plain, plain.Request(4, t0), 0, true},
		{"timebased, at minAdmit", tb, tb.Request(2, t0.Add(time.Hour)), 2 * time.Hour, false},
		{"timebased, past minAdmit", tb, tb.Request(2, t0.Add(time.Hour)), 2*time.Hour + time.Second, true},
		{"timebased, newer", tb, tb.Request(2, t0.Add(-time.Minute)), time.Minute, true},
	} {
		if got := tc.p.Classify(tc.p.Tenure.BeginAt(t0.Add(tc.at)), tc.req, cand).Allowed; got != tc.want {
			t.Errorf("%s: allowed %v, want %v", tc.name, got, tc.want)
		}
	}
	tb.NoNewer = true
	req := tb.Request(2, t0.Add(-time.Minute))
	if !req.Timestamp.IsZero() {
		t.Errorf("newer rule off: request timestamp %v, want none", req.Timestamp)
	}
	if tb.Classify(tb.Tenure.BeginAt(t0.Add(time.Minute)), req, cand).Allowed {
		t.Error("newer rule off: a newer candidate was allowed before minAdmit")
	}
}

// The candidate rule is the Policy's own (Config.Preemption), decided
// through the Cycle: a time-based candidate reserved at t0 and still inside
// its 2h minAdmitDuration makes the cycle's Wake the first instant it is
// preemptible: strictly after t0+2h (see TestClassify), so t0+2h+1ns.
func TestClassifyThroughCycle(t *testing.T) {
	tb, _, _ := newTest(t, "timebased")
	cand := timebased.Candidate{ID: "v", Priority: 2, Reserved: t0, Queued: t0}
	c := tb.Tenure.BeginAt(t0.Add(time.Hour))
	if d := tb.Classify(c, tb.Request(2, t0.Add(time.Minute)), cand); d.Allowed {
		t.Fatalf("allowed inside minAdmit: %+v", d)
	}
	if got, want := c.Wake(), t0.Add(2*time.Hour+time.Nanosecond); !got.Equal(want) {
		t.Errorf("Wake = %v, want %v", got, want)
	}
	plain, _, _ := newTest(t, "priority")
	c = plain.Tenure.BeginAt(t0.Add(time.Hour))
	if d := plain.Classify(c, plain.Request(2, t0.Add(time.Minute)), cand); d.Allowed || !c.Wake().IsZero() {
		t.Errorf("priority, equal: allowed %v, Wake %v; want denied for good, no wake", d.Allowed, c.Wake())
	}
}
