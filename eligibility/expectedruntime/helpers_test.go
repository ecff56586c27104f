package expectedruntime_test

import (
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
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
			s.Preempt = runtime.Explicit(elDur(tb, q.preempt))
		}
		if q.reclaim != "" {
			s.Reclaim = runtime.Explicit(elDur(tb, q.reclaim))
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

func elID(tb testing.TB, t *queuetree.Tree, name string) queuetree.ID {
	tb.Helper()
	id, ok := t.Lookup(name)
	if !ok {
		tb.Fatalf("no queue %q", name)
	}
	return id
}

// elClock formats an instant as a time of day, "-" for the zero time.
func elClock(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.Format(time.TimeOnly)
}

// erSilent reports whether r is a silent outcome's reason, by
// [expectedruntime.Outcome.Silent].
func erSilent(r eligibility.Reason) bool {
	o := expectedruntime.Outcome{Decision: eligibility.Decision{Reason: r}}
	return o.Silent()
}
