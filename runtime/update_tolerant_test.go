package runtime_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// TestUpdateResolverTolerant: a resolver NewResolverTolerant built from bad
// settings is reused for the same tree and settings, with the same problems
// reported again; changed settings are rebuilt tolerantly; the strict
// UpdateResolver still refuses them. Combined with
// queuetree.UpdateTolerant, a per-session rebuild of an inconsistent
// snapshot reuses both and never ends with a nil tree or resolver.
func TestUpdateResolverTolerant(t *testing.T) {
	queues := []queuetree.Queue{{Name: "a"}, {Name: "b", Parent: "ghost"}, {Name: "a", Parent: "b"}}
	neg := -time.Minute
	cfg := runtime.Config{DefaultPreempt: -time.Second, Queues: []runtime.QueueSetting{
		{Queue: "a", Preempt: &neg}, {Queue: "nowhere", Reclaim: runtime.Explicit(time.Hour)}}}
	tree, _ := queuetree.NewTolerant(queues)
	prev, perrs := runtime.NewResolverTolerant(tree, cfg)
	if prev == nil || len(perrs) == 0 {
		t.Fatalf("NewResolverTolerant = %v, %v", prev, perrs)
	}
	if r, reused, err := runtime.UpdateResolver(prev, tree, cfg); r != nil || reused || err == nil {
		t.Errorf("UpdateResolver(bad) = %v, %v, %v; want nil, false, an error", r, reused, err)
	}
	// The next session: the same snapshot.
	tree2, treeReused, _ := queuetree.UpdateTolerant(tree, queues)
	if tree2 != tree || !treeReused {
		t.Fatalf("tree not reused")
	}
	cfg2 := cfg
	cfg2.Queues = append([]runtime.QueueSetting(nil), cfg.Queues...)
	r, reused, errs := runtime.UpdateResolverTolerant(prev, tree2, cfg2)
	if r != prev || !reused || fmt.Sprint(errs) != fmt.Sprint(perrs) {
		t.Errorf("UpdateResolverTolerant(same) = %p, %v, %v; want prev, true, %v", r, reused, errs, perrs)
	}
	// A changed setting: rebuilt, with its own problems.
	cfg3 := cfg2
	cfg3.Queues = []runtime.QueueSetting{{Queue: "a", Preempt: runtime.Explicit(time.Minute)}}
	r, reused, errs = runtime.UpdateResolverTolerant(prev, tree2, cfg3)
	want, wantErrs := runtime.NewResolverTolerant(tree2, cfg3)
	a, _ := tree2.Lookup("a")
	if r == nil || r == prev || reused || fmt.Sprint(errs) != fmt.Sprint(wantErrs) || r.Preempt(a) != want.Preempt(a) {
		t.Errorf("UpdateResolverTolerant(changed) = %p, %v, %v", r, reused, errs)
	}
	// Clean input reuses as UpdateResolver does; a nil prev is rebuilt.
	clean := runtime.Config{DefaultPreempt: time.Minute}
	cr, _ := runtime.NewResolverTolerant(tree2, clean)
	if r, reused, errs := runtime.UpdateResolverTolerant(cr, tree2, clean); r != cr || !reused || errs != nil {
		t.Errorf("UpdateResolverTolerant(clean) = %p, %v, %v", r, reused, errs)
	}
	if r, reused, errs := runtime.UpdateResolverTolerant(nil, tree2, cfg); r == nil || reused || len(errs) == 0 {
		t.Errorf("UpdateResolverTolerant(nil prev) = %p, %v, %v", r, reused, errs)
	}
	// Another tree is never reused.
	other, _ := queuetree.NewTolerant(queues)
	if r, reused, _ := runtime.UpdateResolverTolerant(prev, other, cfg); r == prev || reused {
		t.Errorf("reused across trees")
	}
}
