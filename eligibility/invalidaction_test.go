package eligibility_test

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// allActions returns every runtime.Action value, the two valid ones and
// their neighbours included.
func allActions() []runtime.Action {
	out := make([]runtime.Action, 0, 256)
	for a := 0; a < 256; a++ {
		out = append(out, runtime.Action(a))
	}
	return out
}

// validAction is the oracle: exactly the two declared actions are valid.
func validAction(a runtime.Action) bool {
	return a == runtime.ActionPreempt || a == runtime.ActionReclaim
}

// invalidActionSetup is the setup of the review's finding: default
// min-runtime 1h for both actions, one queue "team", now = elMin(1).
func invalidActionSetup(t *testing.T) (*runtime.Resolver, queuetree.ID) {
	t.Helper()
	tree, r := elSetup(t, runtime.MethodLCA, time.Hour, time.Hour, elQueue{Name: "team"})
	return r, elID(t, tree, "team")
}

// TestFilterInvalidAction: every Action but ActionPreempt and ActionReclaim
// is denied with invalid_action and no Until, FailOpen or not, for a
// protected victim (which the valid actions deny too), an unprotected one,
// one without a queue and a nil one. Before the fix, Action(2) and up
// resolved to a zero duration and allowed a victim started a minute ago
// (no_min_runtime).
func TestFilterInvalidAction(t *testing.T) {
	r, team := invalidActionSetup(t)
	now := elMin(1)
	victims := []*eligibility.Job{
		{ID: "fresh", Queue: team, Start: elMin(0)},  // protected until elMin(60)
		{ID: "old", Queue: team, Start: elMin(-600)}, // long done
		{ID: "nostart", Queue: team},                 // never protected
		{ID: "unset", Start: elMin(0)},               // queue forgotten
		nil,                                          // no job at all
		{ID: "elastic", Queue: team, Start: elMin(0), // protected and elastic
			Subgroups: []eligibility.Subgroup{{Name: "w", MinAvailable: 1, Active: 3}}},
	}
	filters := map[string]*minruntime.Filter{
		"closed":      {Resolver: r},
		"open":        {Resolver: r, FailOpen: true},
		"no resolver": {},
		"open, none":  {FailOpen: true},
		"nil":         nil,
	}
	for name, f := range filters {
		for _, a := range allActions() {
			for _, v := range victims {
				d := f.Check(a, team, v, now)
				if validAction(a) {
					if d.Reason == eligibility.ReasonInvalidAction {
						t.Errorf("%s, %v, %v: a valid action is invalid_action", name, a, v)
					}
					continue
				}
				want := eligibility.Decision{Reason: eligibility.ReasonInvalidAction}
				if diff := cmp.Diff(want, d.Decision); diff != "" {
					t.Errorf("%s, %v, victim %v (-want +got):\n%s", name, a, v, diff)
				}
				if res := d.Resolution; res.Duration != 0 || res.Source != queuetree.None || res.Action != a {
					t.Errorf("%s, %v: resolution %+v, want nothing resolved", name, a, res)
				}
				if f.Check(a, team, v, now).Allowed {
					t.Errorf("%s, %v: Allowed", name, a)
				}
			}
		}
	}
}

// TestFilterInvalidActionBoundary pins the review's case and the values
// around the two valid actions: the same protected victim is denied
// minruntime_protected by Action(0) and Action(1) and invalid_action by
// Action(2), Action(3) and Action(255) (never allowed, never no_min_runtime).
func TestFilterInvalidActionBoundary(t *testing.T) {
	r, team := invalidActionSetup(t)
	f := minruntime.Filter{Resolver: r}
	victim := &eligibility.Job{ID: "j", Queue: team, Start: elMin(0)}
	for _, tc := range []struct {
		a    runtime.Action
		want eligibility.Decision
	}{
		{0, eligibility.Decision{Reason: eligibility.ReasonMinRuntimeProtected, Until: elMin(60)}},
		{1, eligibility.Decision{Reason: eligibility.ReasonMinRuntimeProtected, Until: elMin(60)}},
		{2, eligibility.Decision{Reason: eligibility.ReasonInvalidAction}},
		{3, eligibility.Decision{Reason: eligibility.ReasonInvalidAction}},
		{200, eligibility.Decision{Reason: eligibility.ReasonInvalidAction}},
		{255, eligibility.Decision{Reason: eligibility.ReasonInvalidAction}},
	} {
		if diff := cmp.Diff(tc.want, f.Check(tc.a, team, victim, elMin(1)).Decision); diff != "" {
			t.Errorf("%v (-want +got):\n%s", tc.a, diff)
		}
	}
}

// scenarioTakingTwo is the review's scenario: one protected elastic job
// (subgroup MinAvailable 3, Active 4) losing 2 active tasks, so 2 < 3.
func scenarioTakingTwo(q queuetree.ID) []minruntime.Victim {
	j := &eligibility.Job{ID: "e", Queue: q, Start: elMin(0),
		Subgroups: []eligibility.Subgroup{{Name: "w", MinAvailable: 3, Active: 4}}}
	return []minruntime.Victim{{Job: j, Tasks: []minruntime.Task{
		{ID: "t1", Subgroup: "w", Active: true}, {ID: "t2", Subgroup: "w", Active: true}}}}
}

// TestScenarioInvalidAction: the review's scenario is rejected
// below_min_available under both valid actions and invalid_action under
// every other one (before the fix, Action(9) allowed it:
// min_available_kept). An invalid action rejects even a scenario the valid
// actions accept (no victims; an unprotected job), with no Job, no Until and
// one violation, FailOpen or not.
func TestScenarioInvalidAction(t *testing.T) {
	r, team := invalidActionSetup(t)
	old := &eligibility.Job{ID: "old", Queue: team, Start: elMin(-600),
		Subgroups: []eligibility.Subgroup{{Name: "w", MinAvailable: 3, Active: 4}}}
	scenarios := map[string][]minruntime.Victim{
		"takes two": scenarioTakingTwo(team),
		"empty":     nil,
		"unprotected": {{Job: old, Tasks: []minruntime.Task{
			{Subgroup: "w", Active: true}, {Subgroup: "w", Active: true}}}},
	}
	for _, failOpen := range []bool{false, true} {
		v := minruntime.Validator{Resolver: r, FailOpen: failOpen}
		for name, sc := range scenarios {
			for _, a := range allActions() {
				d, err := v.Validate(a, team, sc, elMin(1))
				if err != nil {
					t.Fatalf("%s, %v: %v", name, a, err)
				}
				if validAction(a) {
					wantAllowed := name != "takes two"
					if d.Allowed != wantAllowed || (!wantAllowed && d.Reason != minruntime.ReasonBelowMinAvailable) {
						t.Errorf("failOpen %v, %s, %v: %v", failOpen, name, a, d)
					}
					continue
				}
				want := minruntime.ScenarioDecision{
					Decision:   eligibility.Decision{Reason: eligibility.ReasonInvalidAction},
					Resolution: runtime.Resolution{Source: queuetree.None, Action: a, Method: r.Method()},
					Violations: 1,
				}
				if diff := cmp.Diff(want, d); diff != "" {
					t.Errorf("failOpen %v, %s, %v (-want +got):\n%s", failOpen, name, a, diff)
				}
			}
		}
	}
}

// TestScenarioInvalidActionBoundary pins the review's case by value and
// checks that the validator is usable again after an invalid call.
func TestScenarioInvalidActionBoundary(t *testing.T) {
	r, team := invalidActionSetup(t)
	var v minruntime.Validator
	v.Resolver = r
	for _, tc := range []struct {
		a    runtime.Action
		want eligibility.Reason
	}{
		{9, eligibility.ReasonInvalidAction},
		{0, minruntime.ReasonBelowMinAvailable},
		{2, eligibility.ReasonInvalidAction},
		{1, minruntime.ReasonBelowMinAvailable},
		{3, eligibility.ReasonInvalidAction},
	} {
		d, err := v.Validate(tc.a, team, scenarioTakingTwo(team), elMin(1))
		if err != nil || d.Allowed || d.Reason != tc.want {
			t.Errorf("%v: %v, %v; want rejected %s", tc.a, d, err, tc.want)
		}
		if tc.want == eligibility.ReasonInvalidAction && !strings.Contains(d.String(), "Action(") {
			t.Errorf("%v: String %q does not name the action", tc.a, d.String())
		}
	}
	// A validator without a resolver names the invalid action too, over
	// no_resolver: the action is checked first.
	var zero minruntime.Validator
	if d, _ := zero.Validate(2, team, scenarioTakingTwo(team), elMin(1)); d.Reason != eligibility.ReasonInvalidAction {
		t.Errorf("zero validator: %v", d)
	}
}

// nominatorJob ran 40 minutes of an expected 30: overrun, but inside the
// 1h default min-runtime.
func nominatorJob(q queuetree.ID) eligibility.Job {
	return eligibility.Job{ID: "j", Queue: q, Running: true, Preemptible: true, Start: elMin(-40),
		Annotations: map[string]string{expectedruntime.AnnotationExpectedRuntime: "30m"}}
}

// TestNominatorInvalidAction: with a Resolver, a MinRuntimeAction other
// than preempt or reclaim skips the job with invalid_action and no Until,
// where the valid actions skip it minruntime_protected (before the fix an
// invalid action resolved to zero and nominated it). Without a Resolver the
// action is not used. Validate reports the bad action, naming the field,
// and joins it with a keys problem.
func TestNominatorInvalidAction(t *testing.T) {
	r, team := invalidActionSetup(t)
	job := nominatorJob(team)
	for _, a := range allActions() {
		n := expectedruntime.Nominator{Resolver: r, MinRuntimeAction: a}
		want := eligibility.Decision{Reason: eligibility.ReasonMinRuntimeProtected, Until: elMin(20)}
		if !validAction(a) {
			want = eligibility.Decision{Reason: eligibility.ReasonInvalidAction}
		}
		if diff := cmp.Diff(want, n.Evaluate(&job, elMin(0)).Decision); diff != "" {
			t.Errorf("%v (-want +got):\n%s", a, diff)
		}
		res := n.Nominate([]eligibility.Job{job}, elMin(0))
		if len(res.Nominations) != 0 || len(res.Skips) != 1 || res.Skips[0].Reason != want.Reason {
			t.Errorf("%v: Nominate %+v", a, res)
		}
		err := n.Validate()
		if validAction(a) != (err == nil) {
			t.Errorf("%v: Validate = %v", a, err)
		}
		if err != nil && (!strings.HasPrefix(err.Error(), "eligibility: ") || !strings.Contains(err.Error(), "MinRuntimeAction")) {
			t.Errorf("%v: Validate message %q", a, err)
		}
		noResolver := expectedruntime.Nominator{MinRuntimeAction: a}
		if d := noResolver.Evaluate(&job, elMin(0)).Decision; !d.Allowed || d.Reason != eligibility.Reason("nominated") {
			t.Errorf("%v without a resolver: %v", a, d)
		}
	}
	// The skip is logged as a warning: a configuration error.
	h := &elLogHandler{min: slog.LevelDebug}
	bad := expectedruntime.Nominator{Resolver: r, MinRuntimeAction: 2, Logger: slog.New(h)}
	bad.Nominate([]eligibility.Job{job}, elMin(0))
	if len(h.lines) != 1 || !strings.HasPrefix(h.lines[0], "DEBUG Requeue nomination skipped: job=j, reason=invalid_action") {
		t.Errorf("log lines %q", h.lines)
	}
	both := expectedruntime.Nominator{MinRuntimeAction: 2, Keys: expectedruntime.Keys{ExpectedRuntime: "x", RequeueDelay: "x"}}
	if err := both.Validate(); err == nil || !strings.Contains(err.Error(), "MinRuntimeAction") || !strings.Contains(err.Error(), "annotation keys") {
		t.Errorf("both problems: %v", err)
	}
}
