package runtime_test

import (
	"fmt"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// TestNaiveDesignExamples pins the oracle itself to the design doc's worked examples.
func TestNaiveDesignExamples(t *testing.T) {
	d := func(s string) *time.Duration {
		v, err := runtime.ParseDuration(s)
		if err != nil {
			t.Fatal(err)
		}
		return &v
	}
	queues := []naiveQueue{
		{name: "A"},
		{name: "B", parent: "A", reclaim: d("600s")},
		{name: "C", parent: "B"},
		{name: "D", parent: "B", reclaim: d("60s")},
		{name: "leaf1", parent: "C", reclaim: d("0s")},
		{name: "leaf2", parent: "C", reclaim: d("180s")},
		{name: "leaf3", parent: "D"},
	}
	lca := newNaive(runtime.Config{}, queues)
	byQueue := newNaive(runtime.Config{Method: runtime.MethodQueue}, queues)
	for _, tt := range []struct {
		n                 *naiveResolver
		reclaimer, victim string
		d                 time.Duration
		src               string
	}{
		{lca, "leaf1", "leaf3", 60 * time.Second, "D"},
		{lca, "leaf1", "leaf2", 180 * time.Second, "leaf2"},
		{lca, "leaf3", "leaf1", 600 * time.Second, "B"},
		{byQueue, "leaf3", "leaf1", 0, "leaf1"},
	} {
		if d, src := tt.n.Reclaim(tt.reclaimer, tt.victim); d != tt.d || src != tt.src {
			t.Errorf("naive Reclaim(%s → %s) = %v from %q; want %v from %q", tt.reclaimer, tt.victim, d, src, tt.d, tt.src)
		}
	}
}

// genSetting draws an unset, explicit-zero or positive setting.
func genSetting(t *rapid.T, label string) *time.Duration {
	switch rapid.IntRange(0, 2).Draw(t, label+"Kind") {
	case 0:
		return nil
	case 1:
		return explicit(0)
	}
	return explicit(time.Duration(rapid.IntRange(1, 20).Draw(t, label)) * time.Minute)
}

// TestResolverMatchesNaive is the differential property: on random
// forests, random settings (unset, 0, positive), random defaults and every
// pair of queues (Root and invalid IDs included), the precomputed Resolver
// answers exactly what the naive walk-per-query resolver answers, for both
// methods and for the ID- and name-based calls.
func TestResolverMatchesNaive(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 30).Draw(t, "queues")
		var tq []queuetree.Queue
		var nq []naiveQueue
		var settings []runtime.QueueSetting
		for i := 0; i < n; i++ {
			name := fmt.Sprintf("q%d", i)
			parent := ""
			if p := rapid.IntRange(-1, i-1).Draw(t, "parent"); p >= 0 {
				parent = fmt.Sprintf("q%d", p)
			}
			pre, rec := genSetting(t, "preempt"), genSetting(t, "reclaim")
			tq = append(tq, queuetree.Queue{Name: name, Parent: parent})
			nq = append(nq, naiveQueue{name: name, parent: parent, preempt: pre, reclaim: rec})
			if pre != nil || rec != nil {
				settings = append(settings, runtime.QueueSetting{Queue: name, Preempt: pre, Reclaim: rec})
			}
		}
		tree, err := queuetree.New(tq)
		if err != nil {
			t.Fatal(err)
		}
		cfg := runtime.Config{
			DefaultPreempt: time.Duration(rapid.IntRange(0, 3).Draw(t, "defPreempt")) * time.Minute,
			DefaultReclaim: time.Duration(rapid.IntRange(0, 3).Draw(t, "defReclaim")) * time.Minute,
			Queues:         settings,
		}
		for _, m := range []runtime.Method{runtime.MethodLCA, runtime.MethodQueue} {
			cfg.Method = m
			r, err := runtime.NewResolver(tree, cfg)
			if err != nil {
				t.Fatal(err)
			}
			oracle := newNaive(cfg, nq)
			ids := []queuetree.ID{queuetree.None, queuetree.ID(tree.IDLimit()), -1}
			for x := queuetree.Root; tree.Valid(x); x++ {
				ids = append(ids, x)
			}
			for _, v := range ids {
				vName := nameOf(tree, v)
				d, src := oracle.Preempt(vName)
				check(t, tree, r.Resolve(runtime.ActionPreempt, queuetree.None, v), runtime.ActionPreempt, runtime.MethodQueue, d, src, "Preempt(%q)", vName)
				for _, rc := range ids {
					rName := nameOf(tree, rc)
					d, src := oracle.Reclaim(rName, vName)
					got := r.Resolve(runtime.ActionReclaim, rc, v)
					check(t, tree, got, runtime.ActionReclaim, m, d, src, "%v: Reclaim(%q → %q)", m, rName, vName)
				}
			}
		}
	})
}

// nameOf is the queue's name for the oracle: "" for Root, and a name the
// tree does not have for an invalid ID.
func nameOf(tree *queuetree.Tree, x queuetree.ID) string {
	if !tree.Valid(x) {
		return "not-a-queue"
	}
	return tree.Name(x)
}

func check(t *rapid.T, tree *queuetree.Tree, got runtime.Resolution, a runtime.Action, m runtime.Method, d time.Duration, src string, format string, args ...any) {
	t.Helper()
	wantSource := queuetree.None
	if src != "" {
		wantSource, _ = tree.Lookup(src)
	}
	want := runtime.Resolution{Duration: d, Source: wantSource, SourceName: src, Action: a, Method: m}
	if got != want {
		t.Fatalf(format+": got %+v; naive says %+v", append(args, got, want)...)
	}
}
