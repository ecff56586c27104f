package reserve

import (
	"fmt"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/requeue"
)

// t0 is the tests' now.
var t0 = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

// gpuNodes returns n nodes of capacity c, named node-00, node-01, …
func gpuNodes(n int, c int64) []Node {
	ns := make([]Node, n)
	for i := range ns {
		ns[i] = Node{Name: fmt.Sprintf("node-%02d", i), Capacity: c}
	}
	return ns
}

// running is a job of units on node, started start ago, expected to run
// expected in all.
func running(id, node string, units int64, start, expected time.Duration) Job {
	return Job{Victim: requeue.Victim{ID: id, Start: t0.Add(-start), Expected: expected}, Node: node, Units: units}
}

// request is a pending job of tasks × units, queued waited ago.
func request(id string, tasks int, units int64, waited time.Duration) Request {
	return Request{Contender: requeue.Contender{ID: id, Priority: 1, Queued: t0.Add(-waited)}, Tasks: tasks, Units: units}
}

// mustNew returns a Planner or fails the test.
func mustNew(tb testing.TB, cfg Config) *Planner {
	tb.Helper()
	p, err := New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// mustPlan runs a Plan without a model or fails the test.
func mustPlan(tb testing.TB, p *Planner, now time.Time, in Input) Result {
	tb.Helper()
	res, err := p.Plan(now, in, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return res
}

// events records the Observer's events.
type events []eligibility.Event

func (e *events) Observe(ev eligibility.Event) { *e = append(*e, ev) }

// reasons lists the events' reasons for job.
func (e events) reasons(job string) []eligibility.Reason {
	var out []eligibility.Reason
	for _, ev := range e {
		if ev.Job == job {
			out = append(out, ev.Reason)
		}
	}
	return out
}
