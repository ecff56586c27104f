package runtime_test

import (
	"fmt"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// genAnySetting draws an unset, negative, zero or positive setting.
func genAnySetting(t *rapid.T, label string) *time.Duration {
	switch rapid.IntRange(0, 3).Draw(t, label+"Kind") {
	case 0:
		return nil
	case 1:
		return explicit(-time.Duration(rapid.IntRange(1, 5).Draw(t, label+"Neg")) * time.Minute)
	}
	return explicit(time.Duration(rapid.IntRange(0, 20).Draw(t, label)) * time.Minute)
}

// clamp is the oracle's reading of a negative setting: an explicit 0.
func clamp(d *time.Duration) *time.Duration {
	if d == nil || *d >= 0 {
		return d
	}
	return explicit(0)
}

// TestTolerantPerQueryMatchesNaive is the differential property of the
// tolerant constructor and of the per-query method: on random forests with
// settings that may be negative or name queues the tree lacks, and
// defaults that may be negative, NewResolver reports a problem iff
// there is one, and one build answers, for each method chosen per query
// (ReclaimWithMethod) or per view (WithMethod), exactly what the naive
// resolver answers with negatives read as explicit zeros and unknown
// queues ignored.
func TestTolerantPerQueryMatchesNaive(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tree, nq, cfg, bad := genTolerantInput(t)
		r, err := runtime.NewResolver(tree, cfg)
		if (err != nil) != bad {
			t.Fatalf("NewResolver error %v; want one iff the input has a problem (%v)", err, bad)
		}
		ids := []queuetree.ID{queuetree.None, queuetree.ID(tree.IDLimit())}
		for x := queuetree.Root; tree.Valid(x); x++ {
			ids = append(ids, x)
		}
		for _, m := range []runtime.Method{runtime.MethodLCA, runtime.MethodQueue} {
			oc := cfg
			oc.Method, oc.DefaultPreempt, oc.DefaultReclaim = m, max(cfg.DefaultPreempt, 0), max(cfg.DefaultReclaim, 0)
			oracle := newNaive(oc, nq)
			view := r
			if m != r.Method() {
				mc := cfg
				mc.Method = m
				view, _ = runtime.NewResolver(tree, mc)
			}
			for _, v := range ids {
				vName := nameOf(tree, v)
				d, src := oracle.Preempt(vName)
				check(t, tree, view.Resolve(runtime.ActionPreempt, queuetree.None, v), runtime.ActionPreempt, runtime.MethodQueue, d, src, "Preempt(%q)", vName)
				for _, rc := range ids {
					rName := nameOf(tree, rc)
					d, src := oracle.Reclaim(rName, vName)
					check(t, tree, view.Resolve(runtime.ActionReclaim, rc, v), runtime.ActionReclaim, m, d, src, "%v: Reclaim(%q → %q)", m, rName, vName)
				}
			}
		}
	})
}

// genTolerantInput draws a forest, its naive description (negatives
// clamped, unknown queues left out) and a Config that may hold negative
// values and queues the tree lacks; bad reports whether it does.
func genTolerantInput(t *rapid.T) (*queuetree.Tree, []naiveQueue, runtime.Config, bool) {
	n := rapid.IntRange(1, 15).Draw(t, "queues")
	var tq []queuetree.Queue
	var nq []naiveQueue
	cfg := runtime.Config{
		DefaultPreempt: time.Duration(rapid.IntRange(-2, 3).Draw(t, "defPreempt")) * time.Minute,
		DefaultReclaim: time.Duration(rapid.IntRange(-2, 3).Draw(t, "defReclaim")) * time.Minute,
		Method:         runtime.Method(rapid.IntRange(0, 1).Draw(t, "method")),
	}
	bad := cfg.DefaultPreempt < 0 || cfg.DefaultReclaim < 0
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("q%d", i)
		parent := ""
		if p := rapid.IntRange(-1, i-1).Draw(t, "parent"); p >= 0 {
			parent = fmt.Sprintf("q%d", p)
		}
		pre, rec := genAnySetting(t, "preempt"), genAnySetting(t, "reclaim")
		tq = append(tq, queuetree.Queue{Name: name, Parent: parent})
		nq = append(nq, naiveQueue{name: name, parent: parent, preempt: clamp(pre), reclaim: clamp(rec)})
		if pre != nil || rec != nil {
			cfg.Queues = append(cfg.Queues, runtime.QueueSetting{Queue: name, Preempt: pre, Reclaim: rec})
			bad = bad || (pre != nil && *pre < 0) || (rec != nil && *rec < 0)
		}
	}
	if rapid.Bool().Draw(t, "unknown queue") {
		cfg.Queues = append(cfg.Queues, runtime.QueueSetting{Queue: "ghost", Preempt: explicit(time.Hour)})
		bad = true
	}
	tree, err := queuetree.New(tq)
	if err != nil {
		t.Fatal(err)
	}
	return tree, nq, cfg, bad
}
