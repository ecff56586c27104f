package runtime_test

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// designTree builds the example of KAI-Scheduler's min-runtime design (PR #126): A → B(600s) → {C → {leaf1(0s),
// leaf2(180s)}, D(60s) → leaf3}, from the string forms a KAI-Scheduler
// deployment already has.
func designTree(method string) (*queuetree.Tree, *runtime.Resolver, error) {
	tree, err := queuetree.New([]queuetree.Queue{
		{Name: "A"},
		{Name: "B", Parent: "A"},
		{Name: "C", Parent: "B"},
		{Name: "D", Parent: "B"},
		{Name: "leaf1", Parent: "C"},
		{Name: "leaf2", Parent: "C"},
		{Name: "leaf3", Parent: "D"},
	})
	if err != nil {
		return nil, nil, err
	}
	cfg, err := runtime.ParseConfig(
		map[string]string{"reclaimResolveMethod": method},
		[]runtime.QueueFields{
			{Name: "B", ReclaimMinRuntime: "600s"},
			{Name: "D", ReclaimMinRuntime: "60s"},
			{Name: "leaf1", ReclaimMinRuntime: "0s"},
			{Name: "leaf2", ReclaimMinRuntime: "180s"},
		})
	if err != nil {
		return nil, nil, err
	}
	r, err := runtime.NewResolver(tree, cfg)
	return tree, r, err
}

func ExampleNewResolver() {
	for _, method := range []string{"lca", "queue"} {
		tree, r, err := designTree(method)
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, pair := range [][2]string{{"leaf1", "leaf3"}, {"leaf1", "leaf2"}, {"leaf3", "leaf1"}} {
			reclaimer, _ := tree.Lookup(pair[0])
			victim, _ := tree.Lookup(pair[1])
			res := r.Resolve(runtime.ActionReclaim, reclaimer, victim)
			fmt.Printf("%s reclaims from %s: %v\n", pair[0], pair[1], res)
		}
	}
	// Output:
	// leaf1 reclaims from leaf3: reclaim min-runtime 1m from queue D (lca)
	// leaf1 reclaims from leaf2: reclaim min-runtime 3m from queue leaf2 (lca)
	// leaf3 reclaims from leaf1: reclaim min-runtime 10m from queue B (lca)
	// leaf1 reclaims from leaf3: reclaim min-runtime 1m from queue D (queue)
	// leaf1 reclaims from leaf2: reclaim min-runtime 3m from queue leaf2 (queue)
	// leaf3 reclaims from leaf1: reclaim min-runtime 0s from queue leaf1 (queue)
}

// A reclaim query in the scheduler's hot path: queue IDs in, a Resolution
// out, then the protection window of one victim at the cycle's instant.
func ExampleResolver_Resolve_reclaim() {
	tree, r, err := designTree("lca")
	if err != nil {
		fmt.Println(err)
		return
	}
	reclaimer, _ := tree.Lookup("leaf3")
	victim, _ := tree.Lookup("leaf1")

	res := r.Resolve(runtime.ActionReclaim, reclaimer, victim) // O(log depth), no allocation
	fmt.Println(res)

	start := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC) // the victim's last start
	now := start.Add(7 * time.Minute)
	until := runtime.ProtectedUntil(start, res.Duration) // zero: never protected
	fmt.Println("protected:", !until.IsZero() && now.Before(until))
	fmt.Println("evictable from:", until.Format(time.RFC3339))
	// Output:
	// reclaim min-runtime 10m from queue B (lca)
	// protected: true
	// evictable from: 2025-03-01T12:10:00Z
}

// Preemption inside a queue walks up from the victim's queue (KAI-Scheduler's min-runtime design's
// preemption example), else the node-pool default applies.
func ExampleResolver_Resolve_preempt() {
	tree, err := queuetree.New([]queuetree.Queue{
		{Name: "A"}, {Name: "B", Parent: "A"}, {Name: "C", Parent: "B"},
		{Name: "leaf1", Parent: "C"}, {Name: "leaf2", Parent: "C"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	b, leaf1 := 600*time.Second, 300*time.Second
	r, err := runtime.NewResolver(tree, runtime.Config{
		DefaultPreempt: time.Minute,
		Queues: []runtime.QueueSetting{
			{Queue: "B", Preempt: &b},
			{Queue: "leaf1", Preempt: &leaf1},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, name := range []string{"leaf1", "leaf2", "A"} {
		id, _ := tree.Lookup(name)
		fmt.Printf("%s: %v\n", name, r.Resolve(runtime.ActionPreempt, queuetree.None, id))
	}
	// Output:
	// leaf1: preempt min-runtime 5m from queue leaf1 (queue)
	// leaf2: preempt min-runtime 10m from queue B (queue)
	// A: preempt min-runtime 1m from default (queue)
}

// Configuration problems are reported all at once, each naming the
// argument or the queue and field.
func ExampleParseConfig() {
	_, err := runtime.ParseConfig(
		map[string]string{
			"defaultPreemptMinRuntime": "10m",
			"defaultReclaimMinRuntime": "10",
			"reclaimResolveMethod":     "lcaa",
		},
		[]runtime.QueueFields{
			{Name: "production", PreemptMinRuntime: "20s", ReclaimMinRuntime: "1h-30m"},
			{Name: "research", ReclaimMinRuntime: "2d"},
		})
	fmt.Println(err)
	// Output:
	// runtime: plugin argument defaultReclaimMinRuntime: invalid duration "10": a number needs a unit (such as s, m, h, d); only 0 may omit it
	// runtime: plugin argument reclaimResolveMethod: unknown method "lcaa" (want "lca" or "queue")
	// runtime: queue "production": reclaimMinRuntime: invalid duration "1h-30m": sign '-' inside the duration (at "-30m")
}

func ExampleProtectedUntil() {
	start := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	d := 30 * time.Second
	until := runtime.ProtectedUntil(start, d)
	for _, after := range []time.Duration{30*time.Second - 1, 30 * time.Second} {
		now := start.Add(after)
		fmt.Printf("after %v: protected=%v\n", after, now.Before(until))
	}
	fmt.Println(until.Format(time.RFC3339))
	fmt.Println("d=0:", runtime.ProtectedUntil(start, 0).IsZero())
	fmt.Println("no start:", runtime.ProtectedUntil(time.Time{}, d).IsZero())
	// Output:
	// after 29.999999999s: protected=true
	// after 30s: protected=false
	// 2025-03-01T12:00:30Z
	// d=0: true
	// no start: true
}

// Resolve serves callers that carry the action as a value, such as a
// victim filter shared by the preempt and reclaim actions.
func ExampleResolver_Resolve() {
	tree, r, err := designTree("lca")
	if err != nil {
		fmt.Println(err)
		return
	}
	leaf1, _ := tree.Lookup("leaf1")
	leaf2, _ := tree.Lookup("leaf2")
	for _, a := range []runtime.Action{runtime.ActionPreempt, runtime.ActionReclaim} {
		fmt.Println(r.Resolve(a, leaf1, leaf2))
	}
	// Output:
	// preempt min-runtime 0s from default (queue)
	// reclaim min-runtime 3m from queue leaf2 (lca)
}
