package runtime_test

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// A scheduler that must keep running builds from whatever settings it has
// and reports the rest: a negative value counts as an explicit 0, as
// KAI-Scheduler's plugin ends up treating it (never protected).
func ExampleNewResolverTolerant() {
	tree, _ := queuetree.New([]queuetree.Queue{{Name: "a"}, {Name: "b", Parent: "a"}})
	r, problems := runtime.NewResolverTolerant(tree, runtime.Config{
		DefaultPreempt: time.Hour,
		Queues: []runtime.QueueSetting{
			{Queue: "a", Preempt: runtime.Explicit(-time.Minute)},
			{Queue: "ghost", Preempt: runtime.Explicit(time.Hour)},
		},
	})
	for _, p := range problems {
		fmt.Println(p)
	}
	b, _ := tree.Lookup("b")
	fmt.Println(r.Resolve(runtime.ActionPreempt, queuetree.None, b))
	// Output:
	// runtime: queue "a": Preempt is negative (-1m)
	// runtime: queue "ghost" has min-runtime settings but is not in the queue tree
	// preempt min-runtime 0s from queue a (queue)
}
