package minruntime_test

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// A job whose Queue was never set is not resolved to any queue's
// protection: it is denied with its own reason, unless the embedder opts
// out with FailOpen (and then gets the node-pool defaults, here 0).
func ExampleFilter_failClosed() {
	tree, _ := queuetree.New([]queuetree.Queue{{Name: "team"}})
	hour := time.Hour
	r, _ := runtime.NewResolver(tree, runtime.Config{Queues: []runtime.QueueSetting{
		{Queue: "team", Preempt: &hour}}})
	team, _ := tree.Lookup("team")
	now := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	forgotten := &eligibility.Job{ID: "train", Start: now.Add(-time.Minute)} // Queue left at its zero value

	closed := minruntime.Filter{Resolver: r}
	fmt.Println(closed.Check(runtime.ActionPreempt, team, forgotten, now)) // nothing resolved
	open := minruntime.Filter{Resolver: r, FailOpen: true}
	d := open.Check(runtime.ActionPreempt, team, forgotten, now)
	fmt.Println(d, d.Resolution)
	// Output:
	// denied (queue_unset)
	// allowed (no_min_runtime) preempt min-runtime 0s from default (queue)
}

// An action that is neither preempt nor reclaim (a conversion from a wider
// integer, say) resolves to no min-runtime; it is denied with its own
// reason, FailOpen or not.
func ExampleFilter_invalidAction() {
	tree, _ := queuetree.New([]queuetree.Queue{{Name: "team"}})
	r, _ := runtime.NewResolver(tree, runtime.Config{DefaultPreempt: time.Hour, DefaultReclaim: time.Hour})
	team, _ := tree.Lookup("team")
	now := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	victim := &eligibility.Job{ID: "train", Queue: team, Start: now.Add(-time.Minute)}

	f := minruntime.Filter{Resolver: r, FailOpen: true}
	for _, a := range []runtime.Action{runtime.ActionPreempt, runtime.ActionReclaim, runtime.Action(2)} {
		fmt.Println(a, f.Check(a, team, victim, now).Decision)
	}
	// Output:
	// preempt denied (minruntime_protected) until 2026-03-02T12:59:00Z
	// reclaim denied (minruntime_protected) until 2026-03-02T12:59:00Z
	// Action(2) denied (invalid_action)
}

// Subgroups supplied on demand: the filter asks for them only when the
// victim is still protected.
func ExampleJob_SubgroupsFunc() {
	tree, _ := queuetree.New([]queuetree.Queue{{Name: "team"}})
	r, _ := runtime.NewResolver(tree, runtime.Config{DefaultReclaim: 10 * time.Minute})
	team, _ := tree.Lookup("team")
	now := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	job := &eligibility.Job{ID: "elastic", Queue: team, SubgroupsFunc: func() []eligibility.Subgroup {
		fmt.Println("  (subgroups loaded)")
		return []eligibility.Subgroup{{Name: "workers", MinAvailable: 2, Active: 4}}
	}}
	f := minruntime.Filter{Resolver: r}
	for _, ran := range []time.Duration{time.Hour, time.Minute} {
		job.Start = now.Add(-ran)
		fmt.Println("ran", ran, "->", f.Check(runtime.ActionReclaim, team, job, now).Reason)
	}
	// Output:
	// ran 1h0m0s -> not_protected
	//   (subgroups loaded)
	// ran 1m0s -> elastic_deferred
}
