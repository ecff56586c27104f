package sim

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"
)

// tenure's reservation and backfill on a hand-made trace. One 4-GPU node;
// expected runtimes be=100s, burstable=5000s, ls=1000s; reservations
// after 20s.
//
//	t=0     A (LS, 1 GPU, runs 40s) and B (LS, 1 GPU, runs 10000s: it
//	        will overstay its expected 1000s) start.
//	t=1     W (Burstable, 4 GPUs, 100s) arrives: it cannot fit.
//	t=30    W has waited 20s: it reserves the node, planned start 1000
//	        (A's and B's expected ends; min-runtime ls=0s).
//	t=100   S (BE, 1 GPU, 30s) backfills in front of W: it is expected
//	        to end at 200 <= 1000. L (Burstable, 1 GPU, 30s) is denied:
//	        expected to end at 5100 > 1000, it waits behind W.
//	t=1000  the planned start: B, an overstayer, is requeued by the
//	        due pass and W starts; L starts when W ends, at 1100. (W's
//	        min-runtime, burstable=1000s, keeps B, of a higher priority,
//	        from preempting it back at once.)
//
// With min-runtime ls=2000s B is protected until 2000: the plan says so
// (planned start 2000), and B is not requeued before its protection ends.
func TestTenureReservation(t *testing.T) {
	jobs := []trace.Job{
		tj("A", trace.ClassLS, 0, 40, 1, 1000), tj("B", trace.ClassLS, 0, 10000, 1, 1000),
		tj("W", trace.ClassBurstable, 1, 100, 4, 1000),
		tj("S", trace.ClassBE, 100, 30, 1, 1000), tj("L", trace.ClassBurstable, 100, 30, 1, 1000),
	}
	set := testSettings
	set.ReserveAfter = 20 * time.Second
	set.Expected = []QueueDuration{{Queue: "be", D: 100 * time.Second}, {Queue: "burstable", D: 5000 * time.Second}, {Queue: "ls", D: 1000 * time.Second}}
	for _, tc := range []struct {
		lsProtect       time.Duration
		w, s, l, bEvict int64
	}{{0, 1000, 100, 1100, 1000}, {2000 * time.Second, 2000, 100, 2100, 2000}} {
		set.MinRuntime = []QueueDuration{{Queue: "be", D: 0}, {Queue: "burstable", D: 1000 * time.Second}, {Queue: "ls", D: tc.lsProtect}}
		s := testRun{policy: "reserve", set: set, jobs: jobs, nodes: testNodes(4), cfg: Config{Horizon: 5000}}.sim(t)
		got := []int64{s.st[2].start, s.st[3].start, s.st[4].start}
		if got[0] != tc.w || got[1] != tc.s || got[2] != tc.l {
			t.Errorf("ls protection %v: W, S, L started at %v, want %d, %d, %d", tc.lsProtect, got, tc.w, tc.s, tc.l)
		}
		if s.st[1].evictions != 1 || s.st[0].evictions != 0 || s.st[3].evictions != 0 {
			t.Errorf("ls protection %v: evictions A %d, B %d, S %d; want only B's", tc.lsProtect, s.st[0].evictions, s.st[1].evictions, s.st[3].evictions)
		}
		// B, requeued at W's start, and L, behind W, wait -reserve-after
		// in turn and hold reservations too: every holder starts by its
		// pass, and only W's pass evicts.
		if c := s.pol.tr.counts; c["backfilled"] < 1 || c["pass committed"] != 1 || c["started by a pass"] != c["granted"] {
			t.Errorf("ls protection %v: counts %v", tc.lsProtect, c)
		}
		if s.m.result(s).Evictions.Requeue != 1 {
			t.Errorf("ls protection %v: requeue evictions %d, want 1 (B, at the planned start)", tc.lsProtect, s.m.result(s).Evictions.Requeue)
		}
	}
}

// The planner holds only nodes a job's task fits (reserve.Config.Fits
// from the node model). Two 4-GPU nodes: n0 with 100 CPUs, n1 with 200.
//
//	t=0     A and B (LS, 4 GPUs, run 10000s, expected 1000s) start on n0
//	        and n1.
//	t=1     W (Burstable, 4 GPUs, 150 CPUs) arrives: it fits only n1.
//	t=21    W reserves n1 (n0, equally early and first by name, cannot
//	        hold it), planned start 1000.
//	t=1000  B, overstaying on n1, is requeued; W starts. A is not touched
//	        (the run ends at 1010, before B reserves in turn).
func TestTenureReservationFits(t *testing.T) {
	w := tj("W", trace.ClassBurstable, 1, 100, 4, 1000)
	w.CPU = 150
	jobs := []trace.Job{tj("A", trace.ClassLS, 0, 10000, 4, 1000), tj("B", trace.ClassLS, 0, 10000, 4, 1000), w}
	nodes := testNodes(4, 4)
	nodes[1].CPU = 200
	set := testSettings
	set.ReserveAfter = 20 * time.Second
	set.Expected = []QueueDuration{{Queue: "be", D: 100 * time.Second}, {Queue: "burstable", D: 5000 * time.Second}, {Queue: "ls", D: 1000 * time.Second}}
	set.MinRuntime = []QueueDuration{{Queue: "be", D: 0}, {Queue: "burstable", D: 1000 * time.Second}, {Queue: "ls", D: 0}}
	s := testRun{policy: "reserve", set: set, jobs: jobs, nodes: nodes, cfg: Config{Horizon: 1010}}.sim(t)
	if s.st[2].start != 1000 {
		t.Errorf("W started at %d, want 1000", s.st[2].start)
	}
	if s.st[0].evictions != 0 || s.st[1].evictions != 1 {
		t.Errorf("evictions A %d, B %d; want only B's", s.st[0].evictions, s.st[1].evictions)
	}
	if c := s.pol.tr.counts; c["released/holder_does_not_fit"] != 0 || c["granted"] != 1 {
		t.Errorf("counts %v: want one reservation, never on a node W does not fit", c)
	}
}

// TestTenureReservationIdleSkip: a cycle with no reservation held and no
// job that qualifies skips Cycle.Reserve, and decides what calling it
// decides: the same starts, evictions, reservation counts and result, with
// the shortcut and without it (PlanEveryCycle), on the hand-made trace
// above (quiet cycles before W qualifies and after the holders start).
func TestTenureReservationIdleSkip(t *testing.T) {
	jobs := []trace.Job{
		tj("A", trace.ClassLS, 0, 40, 1, 1000), tj("B", trace.ClassLS, 0, 10000, 1, 1000),
		tj("W", trace.ClassBurstable, 1, 100, 4, 1000),
		tj("S", trace.ClassBE, 100, 30, 1, 1000), tj("L", trace.ClassBurstable, 100, 30, 1, 1000),
		tj("Q", trace.ClassBE, 20000, 30, 1, 1000),
	}
	set := testSettings
	set.ReserveAfter = 20 * time.Second
	set.Expected = []QueueDuration{{Queue: "be", D: 100 * time.Second}, {Queue: "burstable", D: 5000 * time.Second}, {Queue: "ls", D: 1000 * time.Second}}
	run := func(every bool) *sim {
		PlanEveryCycle = every
		defer func() { PlanEveryCycle = false }()
		return testRun{policy: "reserve", set: set, jobs: jobs, nodes: testNodes(4), cfg: Config{Horizon: 30000}}.sim(t)
	}
	fast, plain := run(false), run(true)
	if fast.pol.tr.idleSkips == 0 || plain.pol.tr.idleSkips != 0 {
		t.Fatalf("idle skips %d with the shortcut, %d without: the test shows nothing", fast.pol.tr.idleSkips, plain.pol.tr.idleSkips)
	}
	if fast.pol.tr.counts["granted"] == 0 {
		t.Fatal("no reservation granted: the test shows nothing")
	}
	for i := range jobs {
		if f, p := fast.st[i], plain.st[i]; f.start != p.start || f.evictions != p.evictions || f.status != p.status {
			t.Errorf("job %s: start %d, evictions %d, status %v with the shortcut; %d, %d, %v without", jobs[i].Name, f.start, f.evictions, f.status, p.start, p.evictions, p.status)
		}
	}
	if d := cmp.Diff(plain.pol.tr.counts, fast.pol.tr.counts); d != "" {
		t.Errorf("reservation counts (-without +with):\n%s", d)
	}
	if d := cmp.Diff(plain.m.result(plain), fast.m.result(fast)); d != "" {
		t.Errorf("result (-without +with):\n%s", d)
	}
}
