package minruntime_test

import (
	"testing"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/runtime"
)

// TestSubgroupsFuncIsLazy: the filter asks SubgroupsFunc only about a
// victim still protected, once per check, and decides exactly as with the
// subgroups filled in; the validator loads them once per distinct job.
func TestSubgroupsFuncIsLazy(t *testing.T) {
	tree, r := elDesignTree(t, runtime.MethodLCA)
	f := minruntime.Filter{Resolver: r}
	sgs := []eligibility.Subgroup{{Name: "w", MinAvailable: 1, Active: 3}}
	calls := 0
	lazy := eligibility.Job{ID: "e", Queue: elID(t, tree, "leaf2"), Start: elT0,
		SubgroupsFunc: func() []eligibility.Subgroup { calls++; return sgs }}
	eager := lazy
	eager.SubgroupsFunc, eager.Subgroups = nil, sgs
	p := elID(t, tree, "leaf3")
	// leaf2's reclaim protection against leaf3 is 600s (B): protected at
	// minute 5, not at minute 10.
	for _, tc := range []struct {
		minute, wantCalls int
	}{{10, 0}, {20, 0}, {5, 1}, {0, 1}} {
		calls = 0
		got := f.Check(runtime.ActionReclaim, p, &lazy, elMin(tc.minute))
		if want := f.Check(runtime.ActionReclaim, p, &eager, elMin(tc.minute)); got != want {
			t.Errorf("minute %d: lazy %v, eager %v", tc.minute, got, want)
		}
		if calls != tc.wantCalls {
			t.Errorf("minute %d: SubgroupsFunc called %d times, want %d", tc.minute, calls, tc.wantCalls)
		}
	}
	if got := f.Check(runtime.ActionReclaim, p, &lazy, elMin(5)); got.Reason != minruntime.ReasonElasticDeferred {
		t.Errorf("protected elastic: %v, want elastic_deferred", got)
	}

	// The validator: two entries of the same *Job, one load; the decision
	// matches the eager job's.
	calls = 0
	var v minruntime.Validator
	v.Resolver = r
	task := minruntime.Task{Subgroup: "w", Active: true}
	got, err := v.Validate(runtime.ActionReclaim, p, []minruntime.Victim{
		{Job: &lazy, Tasks: []minruntime.Task{task}}, {Job: &lazy, Tasks: []minruntime.Task{task, task}}}, elMin(5))
	if err != nil || got.Allowed || got.Reason != minruntime.ReasonBelowMinAvailable || calls != 1 {
		t.Errorf("validator: %v, %v, %d calls; want below_min_available after 1 call", got, err, calls)
	}
	// Subgroups, when set, win over SubgroupsFunc.
	both := eager
	both.SubgroupsFunc = func() []eligibility.Subgroup { t.Error("SubgroupsFunc called although Subgroups is set"); return nil }
	if got := f.Check(runtime.ActionReclaim, p, &both, elMin(5)); got.Reason != minruntime.ReasonElasticDeferred {
		t.Errorf("Subgroups must be read when set: %v", got)
	}
}
