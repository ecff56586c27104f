package eligibility_test

import (
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/admitprotect"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/eligibility/preemptordelay"
	"github.com/tenurepolicy/tenure/eligibility/timebased"
	"github.com/tenurepolicy/tenure/internal/notbefore"
	"github.com/tenurepolicy/tenure/runtime"
)

// elLast is the last instant a time.Time can hold. time.Time.Add saturates
// the seconds of a sum but not a nanosecond carry, so a start just before it
// plus a protection used to give an Until at or before the start: the job
// was not protected at all. Every protection's Until now saturates at
// elLast instead.
var elLast = time.Unix(math.MaxInt64-62135596800, 999_999_999).UTC()

// TestFilterProtectsAtLastInstant: a victim started 1ns before the last
// instant, with a 1h min-runtime, is protected until the last instant (it
// used to be allowed, not_protected); at the last instant itself every
// protection has run out. Exact sums are unchanged.
func TestFilterProtectsAtLastInstant(t *testing.T) {
	r, team := invalidActionSetup(t)
	f := minruntime.Filter{Resolver: r}
	for _, tc := range []struct {
		start, now time.Time
		want       eligibility.Decision
	}{
		{elLast.Add(-time.Nanosecond), elLast.Add(-time.Nanosecond), eligibility.Decision{Reason: eligibility.ReasonMinRuntimeProtected, Until: elLast}},
		{elLast.Add(-time.Minute), elLast.Add(-time.Nanosecond), eligibility.Decision{Reason: eligibility.ReasonMinRuntimeProtected, Until: elLast}},
		{elLast.Add(-time.Hour), elLast.Add(-time.Nanosecond), eligibility.Decision{Reason: eligibility.ReasonMinRuntimeProtected, Until: elLast}}, // exact
		{elLast.Add(-time.Hour - time.Nanosecond), elLast.Add(-2 * time.Nanosecond), eligibility.Decision{Reason: eligibility.ReasonMinRuntimeProtected, Until: elLast.Add(-time.Nanosecond)}},
		{elLast.Add(-time.Nanosecond), elLast, eligibility.Decision{Allowed: true, Reason: eligibility.Reason("not_protected")}},
	} {
		for _, a := range []runtime.Action{runtime.ActionPreempt, runtime.ActionReclaim} {
			d := f.Check(a, team, &eligibility.Job{ID: "j", Queue: team, Start: tc.start}, tc.now)
			if diff := cmp.Diff(tc.want, d.Decision); diff != "" {
				t.Errorf("%v, start %v, now %v (-want +got):\n%s", a, tc.start, tc.now, diff)
			}
		}
	}
}

// TestScenarioProtectsAtLastInstant: the validator judges such a victim
// protected too, and names the saturated expiry.
func TestScenarioProtectsAtLastInstant(t *testing.T) {
	r, team := invalidActionSetup(t)
	var v minruntime.Validator
	v.Resolver = r
	sc := scenarioTakingTwo(team)
	sc[0].Job.Start = elLast.Add(-time.Nanosecond)
	d, err := v.Validate(runtime.ActionPreempt, team, sc, sc[0].Job.Start)
	if err != nil || d.Allowed || d.Reason != minruntime.ReasonBelowMinAvailable || !d.Until.Equal(elLast) || !d.ProtectedUntil.Equal(elLast) {
		t.Errorf("%v, %v; want below_min_available until the last instant", d, err)
	}
}

// TestNominatorAtLastInstant: the nominator's min-runtime check and its
// not_exceeded Until saturate as well, so neither lies at or before now.
func TestNominatorAtLastInstant(t *testing.T) {
	r, team := invalidActionSetup(t)
	now := elLast.Add(-time.Nanosecond)
	job := nominatorJob(team)
	job.Start = now.Add(-40 * time.Minute) // past its 30m, inside its 1h
	n := expectedruntime.Nominator{Resolver: r}
	want := eligibility.Decision{Reason: eligibility.ReasonMinRuntimeProtected, Until: elLast}
	if diff := cmp.Diff(want, n.Evaluate(&job, now).Decision); diff != "" {
		t.Errorf("min-runtime (-want +got):\n%s", diff)
	}
	job.Start = now.Add(-10 * time.Minute) // inside its 30m
	want = eligibility.Decision{Reason: expectedruntime.ReasonNotExceeded, Until: elLast}
	if diff := cmp.Diff(want, n.Evaluate(&job, now).Decision); diff != "" {
		t.Errorf("not exceeded (-want +got):\n%s", diff)
	}
	// At the last instant itself the saturated expected runtime has run
	// out: the job is nominated, not left waiting with Until = now.
	if d := n.Evaluate(&job, elLast).Decision; !d.Allowed || !d.Until.IsZero() {
		t.Errorf("at the last instant: %v, want nominated", d)
	}
}

// TestTimePoliciesAtLastInstant: KEP-9876's admit protection, the
// preemptor delay and KEP-8522's time-based expiry saturate at the last
// instant instead of ending before they began.
func TestTimePoliciesAtLastInstant(t *testing.T) {
	at := elLast.Add(-time.Nanosecond)
	ap := admitprotect.Protection{FairSharing: explicit(time.Hour)}
	want := eligibility.Decision{Reason: admitprotect.ReasonMinAdmitProtected, Until: elLast}
	if diff := cmp.Diff(want, ap.Check(admitprotect.InCohortFairSharing, at, false, at)); diff != "" {
		t.Errorf("admit protection (-want +got):\n%s", diff)
	}
	pd := preemptordelay.Delay{Delay: time.Hour}
	want = eligibility.Decision{Reason: preemptordelay.ReasonDelayed, Until: elLast}
	if diff := cmp.Diff(want, pd.Check(at, time.Time{}, nil, at)); diff != "" {
		t.Errorf("preemptor delay (-want +got):\n%s", diff)
	}
	cfg := timebased.Config{Policy: timebased.LowerOrNewerEqualPriority, MinAdmitDuration: explicit(time.Hour)}
	reserved := elLast.Add(-2 * time.Nanosecond)
	pdec := cfg.Classify(timebased.Request{Priority: 1, Timestamp: reserved.Add(time.Nanosecond)},
		timebased.Candidate{ID: "c", Priority: 1, Reserved: reserved}, at)
	if pdec.Reason != "protected" || pdec.Allowed || !pdec.Until.Equal(elLast) {
		t.Errorf("time-based: %v %v, want protected until the last instant", pdec.Reason, pdec.Decision)
	}
	// At the last instant the saturated expiry has passed: expired, not
	// protected with Until = now. One nanosecond earlier, a candidate whose
	// exact expiry (reserved + M + 1ns) is that instant is still protected.
	pdec = cfg.Classify(timebased.Request{Priority: 1, Timestamp: reserved.Add(time.Nanosecond)},
		timebased.Candidate{ID: "c", Priority: 1, Reserved: reserved}, elLast)
	if pdec.Reason != "expired" || !pdec.Allowed || !pdec.Until.IsZero() {
		t.Errorf("time-based at the last instant: %v %v, want expired", pdec.Reason, pdec.Decision)
	}
	exact := elLast.Add(-time.Hour - time.Nanosecond)
	pdec = cfg.Classify(timebased.Request{Priority: 1, Timestamp: exact.Add(time.Nanosecond)},
		timebased.Candidate{ID: "c", Priority: 1, Reserved: exact}, at)
	if pdec.Reason != "protected" || !pdec.Until.Equal(elLast) {
		t.Errorf("time-based, expiry exactly the last instant: %v %v, want protected until it", pdec.Reason, pdec.Decision)
	}
}

// TestNotBeforeCeilAtLastInstant: the rounded-up instant is never before
// t, also at the last instant, which is not a whole second.
func TestNotBeforeCeilAtLastInstant(t *testing.T) {
	for _, at := range []time.Time{elLast, elLast.Add(-time.Nanosecond), elLast.Add(-time.Second)} {
		if got := notbefore.Ceil(at); got.Before(at) {
			t.Errorf("NotBeforeCeil(%v) = %v, before it", at, got)
		}
	}
	if got := notbefore.Ceil(elLast); !got.Equal(elLast) {
		t.Errorf("NotBeforeCeil(last) = %v, want the last instant", got)
	}
}
