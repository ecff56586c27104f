package runtime_test

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// A scheduler that must keep running uses the resolver NewResolver builds
// beside its error: a negative value counts as an explicit 0, as
// KAI-Scheduler's plugin ends up treating it (never protected).
func ExampleNewResolver_repairs() {
	tree, _ := queuetree.New([]queuetree.Queue{{Name: "a"}, {Name: "b", Parent: "a"}})
	negative, hour := -time.Minute, time.Hour
	r, err := runtime.NewResolver(tree, runtime.Config{
		DefaultPreempt: time.Hour,
		Queues: []runtime.QueueSetting{
			{Queue: "a", Preempt: &negative},
			{Queue: "ghost", Preempt: &hour},
		},
	})
	fmt.Println(err) // every problem, joined
	b, _ := tree.Lookup("b")
	fmt.Println(r.Resolve(runtime.ActionPreempt, queuetree.None, b))
	// Output:
	// runtime: queue "a": Preempt is negative (-1m)
	// runtime: queue "ghost" has min-runtime settings but is not in the queue tree
	// preempt min-runtime 0s from queue a (queue)
}
