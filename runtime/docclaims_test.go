package runtime_test

import (
	"strings"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// The tests in this file check claims of doc comments that a comment audit
// (a seeded random sample of twenty exported names) found checkable and
// not yet pinned by a test.

// NewResolver: every problem, in this order: negative defaults, an
// unknown Method, then per entry: empty name, duplicate, negative values;
// then the queues the tree does not have.
func TestDocClaimConfigValidateOrder(t *testing.T) {
	neg := -time.Second
	tree, err := queuetree.New([]queuetree.Queue{{Name: "a"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = runtime.NewResolver(tree, runtime.Config{
		DefaultPreempt: -1, DefaultReclaim: -1, Method: 7,
		Queues: []runtime.QueueSetting{{Queue: ""}, {Queue: "a", Preempt: &neg}, {Queue: "a", Reclaim: &neg}, {Queue: "b"}},
	})
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	last := -1
	for _, part := range []string{"DefaultPreempt", "DefaultReclaim", "invalid Method", "Queues[0] has an empty", `"a": Preempt is negative`, "listed twice", `"a": Reclaim is negative`, `"b" has min-runtime settings but is not in the queue tree`} {
		i := strings.Index(msg, part)
		if i <= last {
			t.Fatalf("%q missing or out of order in:\n%s", part, msg)
		}
		last = i
	}
}

// TestDocClaimUnknownIDs: Resolve with an ID the tree did not issue
// (None, as a failed Lookup gives) resolves to the default, except that
// with MethodQueue the reclaimer is not consulted. Tree.Lookup: "" is
// never a queue.
func TestDocClaimUnknownIDs(t *testing.T) {
	tree, err := queuetree.New([]queuetree.Queue{{Name: "A"}, {Name: "B", Parent: "A"}})
	if err != nil {
		t.Fatal(err)
	}
	if id, ok := tree.Lookup(""); ok || id != queuetree.None {
		t.Errorf(`Lookup("") = %v, %v; want None, false`, id, ok)
	}
	b, _ := tree.Lookup("B")
	for _, m := range []runtime.Method{runtime.MethodLCA, runtime.MethodQueue} {
		r, err := runtime.NewResolver(tree, runtime.Config{DefaultReclaim: time.Hour, Method: m,
			Queues: []runtime.QueueSetting{{Queue: "B", Reclaim: explicit(time.Minute)}}})
		if err != nil {
			t.Fatal(err)
		}
		nope, _ := tree.Lookup("nope")
		got := r.Resolve(runtime.ActionReclaim, nope, b)
		want := time.Hour
		if m == runtime.MethodQueue {
			want = time.Minute // B's own: the reclaimer does not matter
		}
		if got.Duration != want {
			t.Errorf("%v, unknown reclaimer: %v, want %v", m, got, want)
		}
		if got := r.Resolve(runtime.ActionReclaim, nope, nope); got.Duration != time.Hour || got.Source != queuetree.None {
			t.Errorf("%v, both unknown: %v; want the default", m, got)
		}
	}
}
