package runtime_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// The tests in this file check claims of doc comments that a comment audit
// (a seeded random sample of twenty exported names) found checkable and
// not yet pinned by a test.

// Config.Validate: every problem, in this order: negative defaults, an
// unknown Method, then per entry: empty name, duplicate, negative values.
func TestDocClaimConfigValidateOrder(t *testing.T) {
	neg := -time.Second
	err := runtime.Config{
		DefaultPreempt: -1, DefaultReclaim: -1, Method: 7,
		Queues: []runtime.QueueSetting{{Queue: ""}, {Queue: "a", Preempt: &neg}, {Queue: "a", Reclaim: &neg}},
	}.Validate()
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	last := -1
	for _, part := range []string{"DefaultPreempt", "DefaultReclaim", "invalid Method", "Queues[0] has an empty", `"a": Preempt is negative`, "listed twice", `"a": Reclaim is negative`} {
		i := strings.Index(msg, part)
		if i <= last {
			t.Fatalf("%q missing or out of order in:\n%s", part, msg)
		}
		last = i
	}
}

// Resolver.ReclaimByName: an unknown name gives an error wrapping
// *queuetree.UnknownQueueError (both names are checked) and Reclaim's
// answer for queuetree.None in its place; with MethodQueue an unknown
// reclaimer does not change the answer. Tree.Lookup: "" is never a queue.
func TestDocClaimReclaimByName(t *testing.T) {
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
			Queues: []runtime.QueueSetting{{Queue: "B", Reclaim: runtime.Explicit(time.Minute)}}})
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.ReclaimByName("nope", "B")
		var uq *queuetree.UnknownQueueError
		if !errors.As(err, &uq) || uq.Queue != "nope" || got != r.Reclaim(queuetree.None, b) {
			t.Errorf("%v, unknown reclaimer: %+v, %v; want Reclaim(None, B) = %+v and an UnknownQueueError", m, got, err, r.Reclaim(queuetree.None, b))
		}
		if m == runtime.MethodQueue && got.Duration != time.Minute {
			t.Errorf("queue method, unknown reclaimer: %v, want B's own minute", got.Duration)
		}
		got, err = r.ReclaimByName("nope", "gone")
		if !errors.Is(err, queuetree.ErrUnknownQueue) || strings.Count(err.Error(), "unknown queue") != 2 || got != r.Reclaim(queuetree.None, queuetree.None) || got.Duration != time.Hour {
			t.Errorf("%v, both unknown: %+v, %v; want the default and two errors", m, got, err)
		}
	}
}
