// Package eltest holds the fixtures the tests of eligibility and its policy
// packages share: a fixed base instant and a queue tree with its min-runtime
// resolver built from a few lines. It is test support only; no library
// code imports it.
package eltest

import (
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// T0 is the fixed base instant of the tests.
var T0 = time.Date(2025, 1, 15, 10, 0, 0, 0, time.UTC)

// Min returns T0 plus k minutes.
func Min(k int) time.Time { return T0.Add(time.Duration(k) * time.Minute) }

// Queue describes one queue of a test tree; Preempt and Reclaim are
// durations in runtime's grammar, "" meaning unset.
type Queue struct {
	Name, Parent     string
	Preempt, Reclaim string
}

// Setup builds a tree and its resolver from qs, with the given defaults and
// reclaim method. It is the only place in the tests that knows
// runtime.Config's shape.
func Setup(tb testing.TB, method runtime.Method, defPreempt, defReclaim time.Duration, qs ...Queue) (*queuetree.Tree, *runtime.Resolver) {
	tb.Helper()
	var queues []queuetree.Queue
	cfg := runtime.Config{DefaultPreempt: defPreempt, DefaultReclaim: defReclaim, Method: method}
	for _, q := range qs {
		queues = append(queues, queuetree.Queue{Name: q.Name, Parent: q.Parent})
		s := runtime.QueueSetting{Queue: q.Name}
		if q.Preempt != "" {
			d := Dur(tb, q.Preempt)
			s.Preempt = &d
		}
		if q.Reclaim != "" {
			d := Dur(tb, q.Reclaim)
			s.Reclaim = &d
		}
		if s.Preempt != nil || s.Reclaim != nil {
			cfg.Queues = append(cfg.Queues, s)
		}
	}
	tree, err := queuetree.New(queues)
	if err != nil {
		tb.Fatal(err)
	}
	r, err := runtime.NewResolver(tree, cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return tree, r
}

// Dur parses s in runtime's duration grammar, failing the test on error.
func Dur(tb testing.TB, s string) time.Duration {
	tb.Helper()
	d, err := runtime.ParseDuration(s)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// ID returns the ID of the queue named name, failing the test when the
// tree has none.
func ID(tb testing.TB, t *queuetree.Tree, name string) queuetree.ID {
	tb.Helper()
	id, ok := t.Lookup(name)
	if !ok {
		tb.Fatalf("no queue %q", name)
	}
	return id
}
