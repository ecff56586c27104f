package minruntime_test

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/runtime"
)

// ExampleValidator follows the accumulated scenario of KAI-Scheduler's min-runtime design: the
// solver adds victim tasks one at a time and asks again each time. The
// elastic victim (4 workers, at least 2) is still protected, so the third
// worker is one too many; the per-pair filter had let it through.
func ExampleValidator() {
	tree, r := designResolver()
	leaf1, _ := tree.Lookup("leaf1")
	leaf3, _ := tree.Lookup("leaf3")
	start := time.Date(2025, 1, 15, 10, 0, 0, 0, time.UTC)
	now := start.Add(2 * time.Minute)

	victim := &eligibility.Job{ID: "ns/elastic", Queue: leaf1, Start: start, Subgroups: []eligibility.Subgroup{
		{Name: "workers", MinAvailable: 2, Active: 4},
	}}
	f := minruntime.Filter{Resolver: r}
	fmt.Println("filter:", f.Check(runtime.ActionReclaim, leaf3, victim, now).Reason)

	v := minruntime.Validator{Resolver: r} // reuse it: it keeps its scratch space
	var tasks []minruntime.Task
	for i := 1; i <= 3; i++ {
		tasks = append(tasks, minruntime.Task{Subgroup: "workers", Active: true})
		d, err := v.Validate(runtime.ActionReclaim, leaf3, []minruntime.Victim{{Job: victim, Tasks: tasks}}, now)
		if err != nil {
			fmt.Println(err)
			return
		}
		if d.Allowed {
			fmt.Printf("%d task(s): allowed (%s)\n", i, d.Reason)
			continue
		}
		fmt.Printf("%d task(s): rejected (%s): job=%s subgroup=%s remaining=%d minAvailable=%d protected until %s\n",
			i, d.Reason, d.Job, d.Subgroup, d.Remaining, d.MinAvailable, d.ProtectedUntil.Format(time.TimeOnly))
	}

	_, err := v.Validate(runtime.ActionReclaim, leaf3, []minruntime.Victim{
		{Job: victim, Tasks: []minruntime.Task{{Subgroup: "ps", Active: true}}},
	}, now)
	fmt.Println(err)
	// Output:
	// filter: elastic_deferred
	// 1 task(s): allowed (min_available_kept)
	// 2 task(s): allowed (min_available_kept)
	// 3 task(s): rejected (below_min_available): job=ns/elastic subgroup=workers remaining=1 minAvailable=2 protected until 10:10:00
	// eligibility: scenario task of job "ns/elastic" names unknown subgroup "ps"
}

// The recorded and the potential victims of an accumulated scenario may
// name the same task: with task IDs it counts once. Two entries with one
// job ID that describe different jobs are rejected, not merged.
func ExampleValidator_badInput() {
	tree, r := designResolver()
	leaf1, _ := tree.Lookup("leaf1")
	leaf3, _ := tree.Lookup("leaf3")
	start := time.Date(2025, 1, 15, 10, 0, 0, 0, time.UTC)
	now := start.Add(2 * time.Minute)
	victim := &eligibility.Job{ID: "ns/elastic", Queue: leaf1, Start: start, Subgroups: []eligibility.Subgroup{
		{Name: "workers", MinAvailable: 2, Active: 4},
	}}
	v := minruntime.Validator{Resolver: r}

	recorded := []minruntime.Task{{ID: "w-0", Subgroup: "workers", Active: true}, {ID: "w-1", Subgroup: "workers", Active: true}}
	potential := []minruntime.Task{{ID: "w-1", Subgroup: "workers", Active: true}}
	d, _ := v.Validate(runtime.ActionReclaim, leaf3, []minruntime.Victim{{Job: victim, Tasks: recorded}, {Job: victim, Tasks: potential}}, now)
	fmt.Println(d)

	impostor := &eligibility.Job{ID: "ns/elastic", Queue: leaf1, Subgroups: []eligibility.Subgroup{{Name: "workers", MinAvailable: 1, Active: 1}}}
	d, _ = v.Validate(runtime.ActionReclaim, leaf3, []minruntime.Victim{{Job: impostor}, {Job: victim, Tasks: recorded}}, now)
	fmt.Println(d)
	// Output:
	// scenario allowed (min_available_kept)
	// scenario rejected (conflicting_victims): two victim entries describe different jobs with ID "ns/elastic"; 1 violation(s)
}
