package minruntime_test

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// elClock formats an instant as a time of day, "-" for the zero time.
func elClock(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.Format(time.TimeOnly)
}

// designResolver builds the tree of KAI-Scheduler's min-runtime design (PR #126): A → B(600s) → {C → {leaf1(0s),
// leaf2(180s)}, D(60s) → leaf3}, reclaim settings, LCA method.
func designResolver() (*queuetree.Tree, *runtime.Resolver) {
	tree, err := queuetree.New([]queuetree.Queue{
		{Name: "A"}, {Name: "B", Parent: "A"}, {Name: "C", Parent: "B"}, {Name: "D", Parent: "B"},
		{Name: "leaf1", Parent: "C"}, {Name: "leaf2", Parent: "C"}, {Name: "leaf3", Parent: "D"},
	})
	if err != nil {
		panic(err)
	}
	// A nil setting inherits; a set one, 0 included, stops inheritance.
	b, d, leaf1, leaf2 := 600*time.Second, 60*time.Second, time.Duration(0), 180*time.Second
	r, err := runtime.NewResolver(tree, runtime.Config{Queues: []runtime.QueueSetting{
		{Queue: "B", Reclaim: &b},
		{Queue: "D", Reclaim: &d},
		{Queue: "leaf1", Reclaim: &leaf1},
		{Queue: "leaf2", Reclaim: &leaf2},
	}})
	if err != nil {
		panic(err)
	}
	return tree, r
}

// ExampleFilter checks the three reclaim examples of KAI-Scheduler's min-runtime design two
// minutes after the victims started, then the boundary: a victim is
// evictable at exactly start + min-runtime.
func ExampleFilter() {
	tree, r := designResolver()
	q := func(name string) queuetree.ID { id, _ := tree.Lookup(name); return id }
	f := minruntime.Filter{Resolver: r}
	start := time.Date(2025, 1, 15, 10, 0, 0, 0, time.UTC)
	now := start.Add(2 * time.Minute)

	for _, pair := range [][2]string{{"leaf1", "leaf3"}, {"leaf1", "leaf2"}, {"leaf3", "leaf1"}} {
		victim := &eligibility.Job{ID: "victim", Queue: q(pair[1]), Start: start}
		d := f.Check(runtime.ActionReclaim, q(pair[0]), victim, now)
		fmt.Printf("%s -> %s: allowed=%v reason=%s min-runtime=%v from %s until=%s\n",
			pair[0], pair[1], d.Allowed, d.Reason, d.Resolution.Duration, d.Resolution.SourceName, elClock(d.Until))
	}

	victim := &eligibility.Job{ID: "victim", Queue: q("leaf2"), Start: start}
	fmt.Println(f.Check(runtime.ActionReclaim, q("leaf1"), victim, start.Add(180*time.Second-time.Nanosecond)).Allowed)
	fmt.Println(f.Check(runtime.ActionReclaim, q("leaf1"), victim, start.Add(180*time.Second)).Allowed)
	// Output:
	// leaf1 -> leaf3: allowed=true reason=not_protected min-runtime=1m0s from D until=-
	// leaf1 -> leaf2: allowed=false reason=minruntime_protected min-runtime=3m0s from leaf2 until=10:03:00
	// leaf3 -> leaf1: allowed=false reason=minruntime_protected min-runtime=10m0s from B until=10:10:00
	// false
	// true
}
