package runtime_test

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// One build serves both reclaim methods: per query, as KAI-Scheduler's
// resolver takes the method with every call, or per view.
func ExampleResolver_ReclaimWithMethod() {
	tree, r, err := designTree("lca")
	if err != nil {
		fmt.Println(err)
		return
	}
	leaf1, _ := tree.Lookup("leaf1")
	leaf3, _ := tree.Lookup("leaf3")
	fmt.Println(r.ReclaimWithMethod(runtime.MethodLCA, leaf3, leaf1))
	fmt.Println(r.ReclaimWithMethod(runtime.MethodQueue, leaf3, leaf1))
	fmt.Println(r.WithMethod(runtime.MethodQueue).Reclaim(leaf3, leaf1))
	// Output:
	// reclaim min-runtime 10m from queue B (lca)
	// reclaim min-runtime 0s from queue leaf1 (queue)
	// reclaim min-runtime 0s from queue leaf1 (queue)
}

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
	fmt.Println(r.Preempt(b))
	// Output:
	// runtime: queue "a": Preempt is negative (-1m)
	// runtime: queue "ghost" has min-runtime settings but is not in the queue tree
	// preempt min-runtime 0s from queue a (queue)
}

// Per scheduling session: reuse the tree and the resolver while the queues
// and the settings stay the same, whatever order they come in.
func ExampleUpdateResolver() {
	queues := []queuetree.Queue{{Name: "a"}, {Name: "b"}}
	cfg := runtime.Config{Queues: []runtime.QueueSetting{
		{Queue: "a", Reclaim: runtime.Explicit(time.Hour)},
		{Queue: "b", Reclaim: runtime.Explicit(time.Minute)},
	}}
	tree, _ := queuetree.New(queues)
	r, _ := runtime.NewResolver(tree, cfg)

	// Next session: the same, in another order.
	next := runtime.Config{Queues: []runtime.QueueSetting{cfg.Queues[1], cfg.Queues[0]}}
	tree, treeReused, _ := queuetree.Update(tree, []queuetree.Queue{queues[1], queues[0]})
	r, reused, err := runtime.UpdateResolver(r, tree, next)
	fmt.Println(treeReused, reused, err)

	// Then b's setting changes: a new resolver.
	next.Queues[0].Reclaim = runtime.Explicit(2 * time.Minute)
	r, reused, err = runtime.UpdateResolver(r, tree, next)
	b, _ := tree.Lookup("b")
	fmt.Println(reused, err, r.Reclaim(b, b).Duration)
	// Output:
	// true true <nil>
	// false <nil> 2m0s
}
