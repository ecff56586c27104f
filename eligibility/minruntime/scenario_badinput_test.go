package minruntime_test

import (
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/runtime"
)

// TestScenarioValidatorBadInput: garbage counts, distinct jobs sharing an ID
// and tasks listed twice give a clear decision, never a wrapped count or a
// job silently described by another's entry.
func TestScenarioValidatorBadInput(t *testing.T) {
	tree, r := elDesignTree(t, runtime.MethodLCA)
	leaf2 := elID(t, tree, "leaf2")
	protected := func(id string, sgs ...eligibility.Subgroup) *eligibility.Job {
		return &eligibility.Job{ID: id, Queue: leaf2, Start: elT0, Subgroups: sgs}
	}
	sg := func(name string, min, active int32) eligibility.Subgroup {
		return eligibility.Subgroup{Name: name, MinAvailable: min, Active: active}
	}
	task := func(id, subgroup string) minruntime.Task {
		return minruntime.Task{ID: id, Subgroup: subgroup, Active: true}
	}
	now := elMin(1) // every protected job here is protected until elMin(10)

	tests := []struct {
		name    string
		victims []minruntime.Victim
		reason  eligibility.Reason
		until   time.Time
	}{
		// 7. Garbage counts.
		{"counts near MinInt32 do not wrap",
			[]minruntime.Victim{{Job: protected("w", sg("s", math.MinInt32, math.MinInt32+1)), Tasks: elTasks("s", 2, 0)}},
			minruntime.ReasonInvalidCounts, elMin(10)},
		{"negative MinAvailable does not let the job be emptied",
			[]minruntime.Victim{{Job: protected("n", sg("s", -5, 3)), Tasks: elTasks("s", 3, 0)}},
			minruntime.ReasonInvalidCounts, elMin(10)},
		{"more active tasks evicted than the subgroup has",
			[]minruntime.Victim{{Job: protected("o", sg("s", 0, 1)), Tasks: elTasks("s", 3, 0)}},
			minruntime.ReasonInvalidCounts, elMin(10)},
		{"garbage in an unprotected job does not matter",
			[]minruntime.Victim{{Job: &eligibility.Job{ID: "u", Queue: leaf2, Subgroups: []eligibility.Subgroup{sg("s", -5, 3)}}, Tasks: elTasks("s", 3, 0)}},
			eligibility.Reason("min_available_kept"), time.Time{}},
		// 8. Distinct jobs sharing an ID.
		{"an unprotected job listed first does not hide a protected one with its ID",
			[]minruntime.Victim{
				{Job: &eligibility.Job{ID: "x", Queue: leaf2, Subgroups: []eligibility.Subgroup{sg("s", 1, 1)}}},
				{Job: protected("x", sg("s", 1, 4)), Tasks: elTasks("s", 4, 0)},
			},
			minruntime.ReasonConflictingVictims, time.Time{}},
		{"equal copies of one job are the same job",
			[]minruntime.Victim{
				{Job: protected("c", sg("s", 2, 4)), Tasks: elTasks("s", 1, 0)},
				{Job: protected("c", sg("s", 2, 4)), Tasks: elTasks("s", 1, 0)},
			},
			eligibility.Reason("min_available_kept"), time.Time{}},
		{"equal copies are summed",
			[]minruntime.Victim{
				{Job: protected("c", sg("s", 2, 4)), Tasks: elTasks("s", 2, 0)},
				{Job: protected("c", sg("s", 2, 4)), Tasks: elTasks("s", 1, 0)},
			},
			minruntime.ReasonBelowMinAvailable, elMin(10)},
		// An empty ID is an ID like the others: equal copies (distinct
		// pointers) are one job and summed, so two entries each taking 2 of
		// 4 tasks with min 2 cannot empty the job between them.
		{"equal copies of a job without an ID are summed",
			[]minruntime.Victim{
				{Job: protected("", sg("s", 2, 4)), Tasks: elTasks("s", 2, 0)},
				{Job: protected("", sg("s", 2, 4)), Tasks: elTasks("s", 2, 0)},
			},
			minruntime.ReasonBelowMinAvailable, elMin(10)},
		{"equal copies of a job without an ID within its minimum",
			[]minruntime.Victim{
				{Job: protected("", sg("s", 2, 4)), Tasks: elTasks("s", 1, 0)},
				{Job: protected("", sg("s", 2, 4)), Tasks: elTasks("s", 1, 0)},
			},
			eligibility.Reason("min_available_kept"), time.Time{}},
		{"different jobs without an ID conflict",
			[]minruntime.Victim{
				{Job: &eligibility.Job{Queue: leaf2, Subgroups: []eligibility.Subgroup{sg("s", 1, 1)}}},
				{Job: protected("", sg("s", 2, 4)), Tasks: elTasks("s", 2, 0)},
			},
			minruntime.ReasonConflictingVictims, time.Time{}},
		{"one job without an ID listed twice is summed",
			func() []minruntime.Victim {
				j := protected("", sg("s", 2, 4))
				return []minruntime.Victim{{Job: j, Tasks: elTasks("s", 2, 0)}, {Job: j, Tasks: elTasks("s", 1, 0)}}
			}(),
			minruntime.ReasonBelowMinAvailable, elMin(10)},
		// Repeated subgroup names: the tasks cannot be attributed.
		{"tasks from a repeated subgroup name are not attributed to the first",
			// By the first "w" (5 active, min 1) the job keeps 3; the tasks
			// may be the second "w"'s (2 active, min 2), which would keep 0.
			[]minruntime.Victim{{Job: protected("d", sg("w", 1, 5), sg("w", 2, 2)), Tasks: elTasks("w", 2, 0)}},
			minruntime.ReasonDuplicateSubgroup, elMin(10)},
		{"a repeated name wins over invalid counts",
			[]minruntime.Victim{{Job: protected("d", sg("w", -1, 5), sg("w", 2, 2)), Tasks: elTasks("w", 2, 0)}},
			minruntime.ReasonDuplicateSubgroup, elMin(10)},
		{"a repeated name the scenario does not touch does not matter",
			[]minruntime.Victim{{Job: protected("d", sg("a", 1, 3), sg("w", 1, 5), sg("w", 2, 2)), Tasks: elTasks("a", 1, 0)}},
			eligibility.Reason("min_available_kept"), time.Time{}},
		{"releasing tasks alone do not touch a repeated name",
			[]minruntime.Victim{{Job: protected("d", sg("w", 1, 5), sg("w", 2, 2)), Tasks: elTasks("w", 0, 2)}},
			eligibility.Reason("min_available_kept"), time.Time{}},
		{"distinct names alike in length and last byte are not a repeat",
			// "a" and "xZ" fall into one bucket of the validator's cheap
			// filter; the exact comparison tells them apart.
			[]minruntime.Victim{{Job: protected("d", sg("a", 1, 5), sg("xZ", 2, 2)), Tasks: elTasks("a", 2, 0)}},
			eligibility.Reason("min_available_kept"), time.Time{}},
		{"65 distinct subgroup names",
			[]minruntime.Victim{{Job: protected("d", manySubgroups(65, "")...), Tasks: elTasks("s0", 1, 0)}},
			eligibility.Reason("min_available_kept"), time.Time{}},
		{"65 subgroups, the first name repeated last",
			[]minruntime.Victim{{Job: protected("d", manySubgroups(65, "s0")...), Tasks: elTasks("s0", 1, 0)}},
			minruntime.ReasonDuplicateSubgroup, elMin(10)},
		{"a repeated name in an unprotected job does not matter",
			[]minruntime.Victim{{Job: &eligibility.Job{ID: "u", Queue: leaf2, Subgroups: []eligibility.Subgroup{sg("w", 1, 5), sg("w", 2, 2)}}, Tasks: elTasks("w", 2, 0)}},
			eligibility.Reason("min_available_kept"), time.Time{}},
		// 9. Task identity.
		{"a task listed in the recorded and the potential victims counts once",
			func() []minruntime.Victim {
				j := protected("t", sg("s", 2, 4))
				return []minruntime.Victim{
					{Job: j, Tasks: []minruntime.Task{task("p1", "s"), task("p2", "s")}},
					{Job: j, Tasks: []minruntime.Task{task("p2", "s")}},
				}
			}(),
			eligibility.Reason("min_available_kept"), time.Time{}},
		{"distinct task IDs all count",
			func() []minruntime.Victim {
				j := protected("t", sg("s", 2, 4))
				return []minruntime.Victim{
					{Job: j, Tasks: []minruntime.Task{task("p1", "s"), task("p2", "s")}},
					{Job: j, Tasks: []minruntime.Task{task("p3", "s")}},
				}
			}(),
			minruntime.ReasonBelowMinAvailable, elMin(10)},
		{"a task listed twice in different subgroups conflicts",
			func() []minruntime.Victim {
				j := protected("t", sg("a", 1, 3), sg("b", 1, 3))
				return []minruntime.Victim{
					{Job: j, Tasks: []minruntime.Task{task("p1", "a")}},
					{Job: j, Tasks: []minruntime.Task{task("p1", "b")}},
				}
			}(),
			minruntime.ReasonConflictingVictims, time.Time{}},
		{"a task listed twice, active and releasing, conflicts",
			func() []minruntime.Victim {
				j := protected("t", sg("a", 1, 3))
				return []minruntime.Victim{
					{Job: j, Tasks: []minruntime.Task{task("p1", "a"), {ID: "p1", Subgroup: "a", Active: false}}},
				}
			}(),
			minruntime.ReasonConflictingVictims, time.Time{}},
		{"the same task ID in two jobs is two tasks",
			[]minruntime.Victim{
				{Job: protected("j1", sg("s", 1, 2)), Tasks: []minruntime.Task{task("p", "s")}},
				{Job: protected("j2", sg("s", 1, 2)), Tasks: []minruntime.Task{task("p", "s")}},
			},
			eligibility.Reason("min_available_kept"), time.Time{}},
	}
	v := minruntime.Validator{Resolver: r}
	// The remaining count is exact, not wrapped: MinInt32+1 - 2.
	d, _ := v.Validate(runtime.ActionPreempt, leaf2, tests[0].victims, now)
	if want := int64(math.MinInt32) - 1; d.Remaining != want || d.MinAvailable != math.MinInt32 || d.Job != "w" || d.Subgroup != "s" {
		t.Errorf("garbage counts: %+v, want Remaining %d", d, want)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := v.Validate(runtime.ActionPreempt, leaf2, tc.victims, now)
			if err != nil {
				t.Fatal(err)
			}
			wantAllowed := tc.reason == eligibility.Reason("min_available_kept")
			if got.Allowed != wantAllowed || got.Reason != tc.reason || !got.Until.Equal(tc.until) {
				t.Errorf("Validate = %v (allowed %v, reason %q, until %v); want allowed %v, reason %q, until %v",
					got, got.Allowed, got.Reason, got.Until, wantAllowed, tc.reason, tc.until)
			}
		})
	}
}

// manySubgroups returns n elastic subgroups (min 1, active 3) named s0, s1,
// …; a non-empty last renames the last one.
func manySubgroups(n int, last string) []eligibility.Subgroup {
	out := make([]eligibility.Subgroup, n)
	for i := range out {
		out[i] = eligibility.Subgroup{Name: "s" + strconv.Itoa(i), MinAvailable: 1, Active: 3}
	}
	if last != "" {
		out[n-1].Name = last
	}
	return out
}
