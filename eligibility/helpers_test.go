package eligibility_test

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

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

func elID(tb testing.TB, t *queuetree.Tree, name string) queuetree.ID {
	tb.Helper()
	id, ok := t.Lookup(name)
	if !ok {
		tb.Fatalf("no queue %q", name)
	}
	return id
}

// elLogHandler records (level, message) pairs.
type elLogHandler struct {
	mu    sync.Mutex
	min   slog.Level
	lines []string
}

func (h *elLogHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= h.min }
func (h *elLogHandler) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.lines = append(h.lines, r.Level.String()+" "+r.Message)
	return nil
}
func (h *elLogHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *elLogHandler) WithGroup(string) slog.Handler      { return h }

// explicit returns a pointer to d, for a QueueSetting or a MinAdmitDuration.
func explicit(d time.Duration) *time.Duration { return &d }
