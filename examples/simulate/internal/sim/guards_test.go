package sim

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/report"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"
)

// The preemptor delay: B (LS) arrives at 10 on a node A (BE) fills. Plain
// priority evicts A at once; with a 100 s delay B may cause evictions only
// at exactly 10+100 = 110 (the delay allows at its end), a cycle the
// denial's Until asked for. The report counts B once and the 100 s it was
// held (first put-off at 10, delay's end 110, start 110).
func TestPreemptorDelay(t *testing.T) {
	jobs := []trace.Job{tj("A", trace.ClassBE, 0, 100000, 1, 1000), tj("B", trace.ClassLS, 10, 50, 1, 1000)}
	for _, tc := range []struct {
		delay time.Duration
		start int64
		want  report.Guards
	}{
		{0, 10, report.Guards{EvictionsPerJobP99: 1, EvictionsPerJobMax: 1}},
		{100 * time.Second, 110, report.Guards{EvictionsPerJobP99: 1, EvictionsPerJobMax: 1, DelayedJobs: 1, DelayHeldHours: 100.0 / 3600}},
	} {
		set := testSettings
		set.PreemptorDelay = tc.delay
		s := testRun{policy: "priority", set: set, jobs: jobs, nodes: testNodes(1), cfg: Config{Horizon: 5000}}.sim(t)
		if s.st[1].start != tc.start || s.st[0].evictions != 1 {
			t.Errorf("delay %s: B started %d (want %d), A evictions %d (want 1)", tc.delay, s.st[1].start, tc.start, s.st[0].evictions)
		}
		if diff := cmp.Diff(tc.want, s.m.result(s).Guards); diff != "" {
			t.Errorf("delay %s: guards (-want +got):\n%s", tc.delay, diff)
		}
	}
}

// The eviction budget: B (LS) evicts A (BE) at 10 and runs to 60; A
// restarts at 60. C (LS) arrives at 100. Without a budget C evicts A at
// once. With 1 eviction per 1000 s, A's eviction at 10 counts until
// exactly 1010 (it no longer counts then): C waits until 1010, a cycle the
// denial's Until asked for, and the report counts one hold (one job, one
// window, however many cycles asked).
func TestEvictionBudget(t *testing.T) {
	jobs := []trace.Job{
		tj("A", trace.ClassBE, 0, 100000, 1, 1000),
		tj("B", trace.ClassLS, 10, 50, 1, 1000),
		tj("C", trace.ClassLS, 100, 50, 1, 1000),
	}
	for _, tc := range []struct {
		max   int
		start int64
		holds int
	}{{0, 100, 0}, {1, 1010, 1}} {
		set := testSettings
		set.BudgetMax, set.BudgetWindow = tc.max, 1000*time.Second
		s := testRun{policy: "priority", set: set, jobs: jobs, nodes: testNodes(1), cfg: Config{Horizon: 5000}}.sim(t)
		g := s.m.result(s).Guards
		if s.st[2].start != tc.start || s.st[0].evictions != 2 || g.BudgetHolds != tc.holds || g.EvictionsPerJobMax != 2 {
			t.Errorf("budget %d/1000s: C started %d (want %d), A evictions %d (want 2), holds %d (want %d), max per job %d (want 2)",
				tc.max, s.st[2].start, tc.start, s.st[0].evictions, g.BudgetHolds, tc.holds, g.EvictionsPerJobMax)
		}
	}
}

// The budget in the requeue engine: Z evicts X (requeue, equal priority)
// at 4000; X runs again from 4100 and is past its 1h expected runtime at
// 7700. W arrives at 8000. Without a budget the engine evicts X for W at
// once; with 1 eviction per 2h, X's eviction at 4000 (recorded from the
// engine's RequeueResult.EvictionRecords) counts until exactly 11200: the
// engine skips X until then (one hold), and W starts at 11200.
func TestEvictionBudgetInRequeue(t *testing.T) {
	jobs := []trace.Job{
		tj("X", trace.ClassBE, 0, 100000, 1, 1000),
		tj("Z", trace.ClassBE, 4000, 100, 1, 1000),
		tj("W", trace.ClassBE, 8000, 100, 1, 1000),
	}
	for _, tc := range []struct {
		max   int
		start int64
		holds int
	}{{0, 8000, 0}, {1, 11200, 1}} {
		set := testSettings
		set.BudgetMax, set.BudgetWindow = tc.max, 2*time.Hour
		s := testRun{policy: "requeue", set: set, jobs: jobs, nodes: testNodes(1), cfg: Config{Horizon: 12000}}.sim(t)
		r := s.m.result(s)
		if s.st[2].start != tc.start || s.st[0].evictions != 2 || r.Evictions.Requeue != 2 || r.Guards.BudgetHolds != tc.holds {
			t.Errorf("budget %d/2h: W started %d (want %d), X evictions %d (want 2), requeue evictions %d (want 2), holds %d (want %d)",
				tc.max, s.st[2].start, tc.start, s.st[0].evictions, r.Evictions.Requeue, r.Guards.BudgetHolds, tc.holds)
		}
	}
}
