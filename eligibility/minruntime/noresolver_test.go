package minruntime_test

import (
	"testing"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/runtime"
)

// TestForgottenResolverFailsClosed: a filter or validator whose Resolver
// was never set cannot know any protection, so it denies with
// ReasonNoResolver (never an empty reason) unless FailOpen is set, in
// which case every duration is zero.
func TestForgottenResolverFailsClosed(t *testing.T) {
	tree, _ := elDesignTree(t, runtime.MethodLCA)
	victim := &eligibility.Job{ID: "v", Queue: elID(t, tree, "leaf2"), Start: elT0}
	p := elID(t, tree, "leaf3")
	for _, action := range []runtime.Action{runtime.ActionPreempt, runtime.ActionReclaim} {
		for name, f := range map[string]*minruntime.Filter{"zero": {}, "nil": nil, "unbuilt resolver": {Resolver: &runtime.Resolver{}}} {
			d := f.Check(action, p, victim, elMin(5))
			if d.Allowed || d.Reason != minruntime.ReasonNoResolver || !d.Until.IsZero() {
				t.Errorf("%s filter, %v: %v, want denied no_resolver without Until", name, action, d)
			}
			if d := f.Check(action, p, nil, elMin(5)); d.Allowed || d.Reason == "" {
				t.Errorf("%s filter, %v, nil victim: %v, want denied", name, action, d)
			}
		}
		open := minruntime.Filter{FailOpen: true}
		if d := open.Check(action, p, victim, elMin(5)); !d.Allowed || d.Reason != eligibility.Reason("no_min_runtime") {
			t.Errorf("FailOpen, %v: %v, want allowed no_min_runtime", action, d)
		}
	}

	elastic := &eligibility.Job{ID: "e", Queue: elID(t, tree, "leaf2"), Start: elT0,
		Subgroups: []eligibility.Subgroup{{Name: "w", MinAvailable: 1, Active: 3}}}
	scenario := []minruntime.Victim{{Job: elastic, Tasks: []minruntime.Task{{Subgroup: "w", Active: true}}}}
	var v minruntime.Validator
	d, err := v.Validate(runtime.ActionReclaim, p, scenario, elMin(5))
	if err != nil || d.Allowed || d.Reason != minruntime.ReasonNoResolver || !d.Until.IsZero() {
		t.Errorf("zero validator: %v, %v; want denied no_resolver", d, err)
	}
	open := minruntime.Validator{FailOpen: true}
	if d, err := open.Validate(runtime.ActionReclaim, p, scenario, elMin(5)); err != nil || !d.Allowed {
		t.Errorf("FailOpen validator: %v, %v; want allowed", d, err)
	}
}

// TestScenarioNilJobFailsClosed: a scenario entry without a Job that
// evicts an active task is rejected with ReasonQueueUnset, as the filter
// denies a nil victim; one that evicts nothing is still skipped.
func TestScenarioNilJobFailsClosed(t *testing.T) {
	_, r := elDesignTree(t, runtime.MethodLCA)
	v := minruntime.Validator{Resolver: r}
	d, err := v.Validate(runtime.ActionPreempt, 0, []minruntime.Victim{{Tasks: []minruntime.Task{{Active: true}}}}, elMin(5))
	if err != nil || d.Allowed || d.Reason != minruntime.ReasonQueueUnset || d.Violations != 1 || !d.Until.IsZero() {
		t.Errorf("nil job with an active task: %+v, %v; want rejected queue_unset", d, err)
	}
	d, err = v.Validate(runtime.ActionPreempt, 0, []minruntime.Victim{{Tasks: []minruntime.Task{{Active: false}}}, {}}, elMin(5))
	if err != nil || !d.Allowed {
		t.Errorf("nil job without active tasks: %+v, %v; want allowed", d, err)
	}
	v.FailOpen = true
	if d, err := v.Validate(runtime.ActionPreempt, 0, []minruntime.Victim{{Tasks: []minruntime.Task{{Active: true}}}}, elMin(5)); err != nil || !d.Allowed {
		t.Errorf("FailOpen, nil job: %+v, %v; want allowed", d, err)
	}
}

// TestScenarioLoadsSubgroupsOnlyWhenProtected: the validator asks
// SubgroupsFunc only about a victim still protected (or whose protection
// cannot be known), never about one whose min-runtime has passed.
func TestScenarioLoadsSubgroupsOnlyWhenProtected(t *testing.T) {
	tree, r := elDesignTree(t, runtime.MethodLCA)
	calls := 0
	lazy := &eligibility.Job{ID: "e", Queue: elID(t, tree, "leaf2"), Start: elT0,
		SubgroupsFunc: func() []eligibility.Subgroup {
			calls++
			return []eligibility.Subgroup{{Name: "w", MinAvailable: 1, Active: 3}}
		}}
	p := elID(t, tree, "leaf3")
	v := minruntime.Validator{Resolver: r}
	scenario := []minruntime.Victim{{Job: lazy, Tasks: []minruntime.Task{{Subgroup: "w", Active: true}, {Subgroup: "w", Active: true}, {Subgroup: "w", Active: true}}}}
	// leaf2's reclaim protection against leaf3 is 600s: protected at
	// minute 5, not at minute 10 (exactly start + 600s).
	for _, tc := range []struct {
		minute, wantCalls int
		allowed           bool
	}{{10, 0, true}, {20, 0, true}, {5, 1, false}} {
		calls = 0
		d, err := v.Validate(runtime.ActionReclaim, p, scenario, elMin(tc.minute))
		if err != nil || d.Allowed != tc.allowed || calls != tc.wantCalls {
			t.Errorf("minute %d: %v, %v, %d calls; want allowed %v after %d calls", tc.minute, d, err, calls, tc.allowed, tc.wantCalls)
		}
	}
}

// TestScenarioUnresolvedMessage: a rejection because the protection cannot
// be known says why, names no reclaim method for a preempt, and claims no
// protection.
func TestScenarioUnresolvedMessage(t *testing.T) {
	tree, r := elDesignTree(t, runtime.MethodLCA)
	elastic := eligibility.Job{ID: "e", Start: elT0, Subgroups: []eligibility.Subgroup{{Name: "w", MinAvailable: 1, Active: 3}}}
	take := []minruntime.Task{{Subgroup: "w", Active: true}}
	for _, tc := range []struct {
		v      minruntime.Validator
		queue  string
		action runtime.Action
		want   string
	}{
		{minruntime.Validator{Resolver: r}, "", runtime.ActionPreempt, `scenario rejected (queue_unset): the queue of job "e" (or, where it matters, the preemptor's) is unset, so its protection cannot be known; 1 violation(s)`},
		{minruntime.Validator{Resolver: r}, "", runtime.ActionReclaim, `scenario rejected (queue_unset): the queue of job "e" (or, where it matters, the preemptor's) is unset, so its protection cannot be known; 1 violation(s)`},
		{minruntime.Validator{}, "leaf2", runtime.ActionPreempt, `scenario rejected (no_resolver): the validator has no Resolver, so the protection of job "e" cannot be known; 1 violation(s)`},
		{minruntime.Validator{}, "leaf2", runtime.ActionReclaim, `scenario rejected (no_resolver): the validator has no Resolver, so the protection of job "e" cannot be known; 1 violation(s)`},
	} {
		j := elastic
		if tc.queue != "" {
			j.Queue = elID(t, tree, tc.queue)
		}
		d, err := tc.v.Validate(tc.action, elID(t, tree, "leaf3"), []minruntime.Victim{{Job: &j, Tasks: take}}, elMin(1))
		if err != nil || d.String() != tc.want {
			t.Errorf("%v %q: %q, %v; want %q", tc.action, tc.queue, d.String(), err, tc.want)
		}
	}
	// An unknown queue and a nil job, the same way.
	d, _ := (&minruntime.Validator{Resolver: r}).Validate(runtime.ActionPreempt, 0, []minruntime.Victim{{Tasks: take}}, elMin(1))
	if want := `scenario rejected (queue_unset): the queue of job "" (or, where it matters, the preemptor's) is unset, so its protection cannot be known; 1 violation(s)`; d.String() != want {
		t.Errorf("nil job: %q, want %q", d.String(), want)
	}
	j := elastic
	j.Queue = 9999
	d, _ = (&minruntime.Validator{Resolver: r}).Validate(runtime.ActionPreempt, 0, []minruntime.Victim{{Job: &j, Tasks: take}}, elMin(1))
	if want := `scenario rejected (unknown_queue): the queue of job "e" (or, where it matters, the preemptor's) is not in the resolver's tree, so its protection cannot be known; 1 violation(s)`; d.String() != want {
		t.Errorf("unknown queue: %q, want %q", d.String(), want)
	}
}
