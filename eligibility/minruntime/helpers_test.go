package minruntime_test

import (
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// elT0 is the fixed base instant of this package's min-runtime, scenario and
// nominator tests.
var elT0 = time.Date(2025, 1, 15, 10, 0, 0, 0, time.UTC)

func elMin(k int) time.Time { return elT0.Add(time.Duration(k) * time.Minute) }

// elQueue describes one queue of a test tree; preempt/reclaim are durations
// in runtime's grammar, "" meaning unset.
type elQueue struct {
	name, parent     string
	preempt, reclaim string
}

// elSetup builds a tree and a resolver. It is the only place in these tests
// that knows runtime.Config's shape.
func elSetup(tb testing.TB, method runtime.Method, defPreempt, defReclaim time.Duration, qs ...elQueue) (*queuetree.Tree, *runtime.Resolver) {
	tb.Helper()
	var queues []queuetree.Queue
	cfg := runtime.Config{DefaultPreempt: defPreempt, DefaultReclaim: defReclaim, Method: method}
	for _, q := range qs {
		queues = append(queues, queuetree.Queue{Name: q.name, Parent: q.parent})
		s := runtime.QueueSetting{Queue: q.name}
		if q.preempt != "" {
			s.Preempt = explicit(elDur(tb, q.preempt))
		}
		if q.reclaim != "" {
			s.Reclaim = explicit(elDur(tb, q.reclaim))
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

func elDur(tb testing.TB, s string) time.Duration {
	tb.Helper()
	d, err := runtime.ParseDuration(s)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// elDesignTree is the reclaim example tree of KAI-Scheduler's min-runtime design (PR #126), A → B(600s) → {C →
// {leaf1(0s), leaf2(180s)}, D(60s) → leaf3}, with its preempt example
// settings on the same queues: B 600s, leaf1 300s (leaf2 inherits 600s).
func elDesignTree(tb testing.TB, method runtime.Method) (*queuetree.Tree, *runtime.Resolver) {
	return elSetup(tb, method, 0, 0,
		elQueue{name: "A"},
		elQueue{name: "B", parent: "A", preempt: "600s", reclaim: "600s"},
		elQueue{name: "C", parent: "B"},
		elQueue{name: "D", parent: "B", reclaim: "60s"},
		elQueue{name: "leaf1", parent: "C", preempt: "300s", reclaim: "0s"},
		elQueue{name: "leaf2", parent: "C", reclaim: "180s"},
		elQueue{name: "leaf3", parent: "D"},
	)
}

func elID(tb testing.TB, t *queuetree.Tree, name string) queuetree.ID {
	tb.Helper()
	id, ok := t.Lookup(name)
	if !ok {
		tb.Fatalf("no queue %q", name)
	}
	return id
}

// validLabel reports whether r is a well-formed reason label, as the
// Reason type documents it: 1 to 64 characters, each a lower-case ASCII
// letter, a digit or '_', starting with a letter.
func validLabel(r eligibility.Reason) bool {
	if len(r) == 0 || len(r) > 64 || r[0] < 'a' || r[0] > 'z' {
		return false
	}
	for i := 1; i < len(r); i++ {
		if c := r[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}

// explicit returns a pointer to d, for a QueueSetting or a MinAdmitDuration.
func explicit(d time.Duration) *time.Duration { return &d }
