package eligibility_test

import (
	"testing"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/runtime"
)

// TestSubgroupsFuncIsLazy: the filter asks SubgroupsFunc only about a
// victim still protected, once per check, and decides exactly as with the
// subgroups filled in; the validator loads them once per distinct job.
func TestSubgroupsFuncIsLazy(t *testing.T) {
	tree, r := elDesignTree(t, runtime.MethodLCA)
	f := eligibility.MinRuntimeFilter{Resolver: r}
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
	if got := f.Check(runtime.ActionReclaim, p, &lazy, elMin(5)); got.Reason != eligibility.ReasonElasticDeferred {
		t.Errorf("protected elastic: %v, want elastic_deferred", got)
	}

	// The validator: two entries of the same *Job, one load; the decision
	// matches the eager job's.
	calls = 0
	var v eligibility.ScenarioValidator
	v.Resolver = r
	task := eligibility.ScenarioTask{Subgroup: "w", Active: true}
	got, err := v.Validate(runtime.ActionReclaim, p, []eligibility.ScenarioJob{
		{Job: &lazy, Tasks: []eligibility.ScenarioTask{task}}, {Job: &lazy, Tasks: []eligibility.ScenarioTask{task, task}}}, elMin(5))
	if err != nil || got.Allowed || got.Reason != eligibility.ReasonBelowMinAvailable || calls != 1 {
		t.Errorf("validator: %v, %v, %d calls; want below_min_available after 1 call", got, err, calls)
	}
	// Subgroups, when set, win over SubgroupsFunc.
	both := eager
	both.SubgroupsFunc = func() []eligibility.Subgroup { t.Error("SubgroupsFunc called although Subgroups is set"); return nil }
	if !both.IsElastic() || both.ActiveTasks() != 3 || both.SubgroupIndex("w") != 0 {
		t.Error("Subgroups must be read when set")
	}
}
