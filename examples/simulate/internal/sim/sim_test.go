package sim

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/longtest"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/report"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// tj builds a single-task test job (cpu and memory 1 each) in team 0.
func tj(name string, c trace.Class, arrival, runtime int64, gpus, milli int32) trace.Job {
	return trace.Job{Name: name, Class: c, Arrival: arrival, Runtime: runtime, CPU: 1, Mem: 1, GPUs: gpus, GPUMilli: milli, Tasks: 1, MinTasks: 1}
}

// inTeam returns j in team t.
func inTeam(j trace.Job, t int) trace.Job {
	j.Team = t
	return j
}

func testNodes(gpus ...int32) []trace.Node {
	var ns []trace.Node
	for i, g := range gpus {
		ns = append(ns, trace.Node{Name: "n" + string(rune('0'+i)), CPU: 100, Mem: 100, GPUs: g})
	}
	return ns
}

// testSettings: min-runtime on the class queues, expected runtime 1h for
// BE, cooldown 30m, minAdmit 2h, thrash window 5m, reservations after 30m.
var testSettings = Settings{
	MinRuntime:   []QueueDuration{{Queue: "be", D: 5 * time.Minute}, {Queue: "burstable", D: 15 * time.Minute}, {Queue: "ls", D: 30 * time.Minute}},
	Expected:     []QueueDuration{{Queue: "be", D: time.Hour}},
	RequeueDelay: 30 * time.Minute,
	RequeueEqual: true,
	MinAdmit:     2 * time.Hour,
	ReserveAfter: 30 * time.Minute,
	Reservations: 1,
	ThrashWindow: 5 * time.Minute,
}

// testRun describes one small simulation.
type testRun struct {
	policy string
	set    Settings
	teams  int
	jobs   []trace.Job
	nodes  []trace.Node
	cfg    Config // zero fields: interval 10, horizon 2^30, window [0, 1000], 4 buckets
}

func (tr testRun) sim(t *testing.T) *sim {
	t.Helper()
	if tr.teams == 0 {
		tr.teams = 1
	}
	if tr.set.Reservations == 0 {
		tr.set = testSettings
	}
	e, err := NewEnv(tr.jobs, tr.teams, tr.set)
	if err != nil {
		t.Fatal(err)
	}
	cfg := tr.cfg
	if cfg.Interval == 0 {
		cfg.Interval = 10
	}
	if cfg.Horizon == 0 {
		cfg.Horizon = 1 << 30
	}
	if cfg.WindowEnd == 0 {
		cfg.WindowEnd = 1000
	}
	if cfg.Buckets == 0 {
		cfg.Buckets = 4
	}
	if cfg.ThrashWindow == 0 {
		cfg.ThrashWindow = int64(tr.set.ThrashWindow / time.Second)
	}
	w := &Workload{Jobs: tr.jobs, Nodes: tr.nodes, Env: e, Seed: 1, Cfg: cfg}
	pol, err := newPolicy(tr.policy, w)
	if err != nil {
		t.Fatal(err)
	}
	s := newSim(cfg, tr.jobs, tr.nodes, pol, e)
	s.shapes = WorkloadShapes(tr.jobs)
	s.run()
	return s
}

type jobOutcome struct {
	Wait, Done int64
	Evictions  int32
}

func outcomes(s *sim) map[string]jobOutcome {
	out := map[string]jobOutcome{}
	for i, j := range s.jobs {
		st := s.st[i]
		out[j.Name] = jobOutcome{Wait: st.done - j.Arrival - j.Runtime, Done: st.done, Evictions: st.evictions}
	}
	return out
}

// Three jobs on one 1-GPU node, cycle every 10 s, window [0, 200]:
//
//	t=0   A (BE, 100 s) arrives; the cycle at 0 starts it.
//	t=10  B (LS, 50 s) arrives; the cycle at 10 evicts A (ran 10 s) and starts B.
//	t=20  C (BE, 30 s) arrives; A (queued earlier) and C wait behind B.
//	t=60  B completes; A restarts from scratch.
//	t=160 A completes; C starts.
//	t=190 C completes.
//
// The GPU is busy 190 of the 200 s; A's first 10 s are thrown away, so
// useful 180 s (goodput 180 GPU-seconds), wasted 10 s.
func TestPriorityThreeJobsOneNode(t *testing.T) {
	jobs := []trace.Job{
		tj("A", trace.ClassBE, 0, 100, 1, 1000),
		tj("B", trace.ClassLS, 10, 50, 1, 1000),
		tj("C", trace.ClassBE, 20, 30, 1, 1000),
	}
	s := testRun{policy: "priority", jobs: jobs, nodes: testNodes(1), cfg: Config{WindowEnd: 200}}.sim(t)
	want := map[string]jobOutcome{
		"A": {Wait: 60, Done: 160, Evictions: 1},
		"B": {Wait: 0, Done: 60},
		"C": {Wait: 140, Done: 190},
	}
	if diff := cmp.Diff(want, outcomes(s)); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	r := s.m.result(s)
	if diff := cmp.Diff(report.Utilisation{Total: 190.0 / 200, Useful: 180.0 / 200, Wasted: 10.0 / 200}, r.Utilisation, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
		t.Errorf("utilisation (-want +got):\n%s", diff)
	}
	if want := 180.0 / 3600; math.Abs(r.GoodputGPUHours-want) > 1e-12 {
		t.Errorf("goodput = %v GPU-h, want 180 GPU-s = %v", r.GoodputGPUHours, want)
	}
	// Every job finished: all of the goodput is done work.
	if diff := cmp.Diff(report.Goodput{Done: 180.0 / 3600}, r.Goodput, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
		t.Errorf("goodput split (-want +got):\n%s", diff)
	}
	if want := 10.0 / 3600; math.Abs(r.LostGPUHours-want) > 1e-12 {
		t.Errorf("lost GPU-h = %v, want %v", r.LostGPUHours, want)
	}
	// A ran 10 s < the 5m thrash window; B (ls-a) evicting A (be-a) is a
	// reclaim, of a BE job.
	if diff := cmp.Diff(report.Evictions{Total: 1, Reclaim: 1, BE: 1}, r.Evictions); diff != "" || r.Thrash != 1 {
		t.Errorf("thrash %d (want 1), evictions (-want +got):\n%s", r.Thrash, diff)
	}
	wantWait := []report.ClassWait{
		{Class: "LS", Jobs: 1, P50: 0, P95: 0, P99: 0},
		{Class: "Burstable"},
		{Class: "BE", Jobs: 2, P50: 60, P95: 140, P99: 140},
	}
	if diff := cmp.Diff(wantWait, r.Wait); diff != "" {
		t.Errorf("waits (-want +got):\n%s", diff)
	}
	if r.Completed != 3 || r.Unfinished != 0 {
		t.Errorf("completed, unfinished = %d, %d; want 3, 0", r.Completed, r.Unfinished)
	}
}

// The thrash metric uses one fixed reference window whatever the policy
// enforces: A's 10 s run is thrash against 11 s, not against 10 s (a run
// of exactly the window is not shorter than it).
func TestThrashFixedWindow(t *testing.T) {
	jobs := []trace.Job{tj("A", trace.ClassBE, 0, 100, 1, 1000), tj("B", trace.ClassLS, 10, 50, 1, 1000)}
	for _, tc := range []struct {
		window int64
		want   int
	}{{10, 0}, {11, 1}} {
		s := testRun{policy: "priority", jobs: jobs, nodes: testNodes(1), cfg: Config{ThrashWindow: tc.window}}.sim(t)
		if got := s.m.result(s).Thrash; got != tc.want {
			t.Errorf("window %ds: thrash %d, want %d", tc.window, got, tc.want)
		}
	}
}

// Jobs still pending or running at the horizon enter the waits with
// censored values, and a job that could not finish even alone is left out.
// One 1-GPU node, stop at 500: A (BE, 350 s) starts at 0 and is evicted at
// 100 by B (LS, 300 s), which completes at 400; A restarts at 400.
//
//	no checkpoints: A waits 500 − 0 − 100 = 400 (it did 100 s of its
//	  second run); 100 s lost.
//	checkpoint 50 s: A keeps the 100 s it ran and waits 500 − 0 − 200 =
//	  300; nothing lost.
//
// I (BE, arriving at 10 with 1000 s of work) cannot finish by 500 even
// alone: it is neither unfinished nor in the waits.
//
// Goodput over [0, 500]: B's 300 s are done work; A's kept work is in
// progress: 100 s (its second run) without checkpoints, 200 s with.
func TestUnfinishedAreCensored(t *testing.T) {
	jobs := []trace.Job{
		tj("A", trace.ClassBE, 0, 350, 1, 1000),
		tj("B", trace.ClassLS, 100, 300, 1, 1000),
		tj("I", trace.ClassBE, 10, 1000, 1, 1000),
	}
	for _, tc := range []struct {
		checkpoint, waitA, lost, inProgress int64
	}{
		{0, 400, 100, 100},
		{50, 300, 0, 200},
	} {
		s := testRun{policy: "priority", jobs: jobs, nodes: testNodes(1),
			cfg: Config{Horizon: 500, WindowEnd: 500, Checkpoint: tc.checkpoint}}.sim(t)
		r := s.m.result(s)
		if r.Completed != 1 || r.Unfinished != 1 {
			t.Errorf("checkpoint %d: completed %d, unfinished %d; want 1, 1 (I is infeasible)", tc.checkpoint, r.Completed, r.Unfinished)
		}
		want := []report.ClassWait{
			{Class: "LS", Jobs: 1},
			{Class: "Burstable"},
			{Class: "BE", Jobs: 1, Censored: 1, P50: float64(tc.waitA), P95: float64(tc.waitA), P99: float64(tc.waitA),
				P50LowerBound: true, P95LowerBound: true, P99LowerBound: true},
		}
		if diff := cmp.Diff(want, r.Wait); diff != "" {
			t.Errorf("checkpoint %d: waits (-want +got):\n%s", tc.checkpoint, diff)
		}
		if got, want := r.LostGPUHours, float64(tc.lost)/3600; math.Abs(got-want) > 1e-12 {
			t.Errorf("checkpoint %d: lost %v GPU-h, want %v", tc.checkpoint, got, want)
		}
		want2 := report.Goodput{Done: 300.0 / 3600, InProgress: float64(tc.inProgress) / 3600}
		if diff := cmp.Diff(want2, r.Goodput, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
			t.Errorf("checkpoint %d: goodput split (-want +got):\n%s", tc.checkpoint, diff)
		}
		if got := r.Goodput.Done + r.Goodput.InProgress; math.Abs(got-r.GoodputGPUHours) > 1e-12 {
			t.Errorf("checkpoint %d: done + in progress = %v, goodput %v", tc.checkpoint, got, r.GoodputGPUHours)
		}
	}
}

// A percentile is a lower bound only when a censored wait lies at or below
// it. One 1-GPU node, stop at 500; A, B, C (BE) arrive at 0 and run in name
// order: A (10 s) waits 0, B (10 s) waits 10, C (490 s) starts at 20 and
// is unfinished with 480 s done: censored wait 20. Waits 0, 10, ≥20: the
// p50 (10) is exact, the p95 and p99 (20) lower bounds.
func TestWaitLowerBounds(t *testing.T) {
	jobs := []trace.Job{tj("A", trace.ClassBE, 0, 10, 1, 1000), tj("B", trace.ClassBE, 0, 10, 1, 1000), tj("C", trace.ClassBE, 0, 490, 1, 1000)}
	s := testRun{policy: "priority", jobs: jobs, nodes: testNodes(1), cfg: Config{Horizon: 500, WindowEnd: 500}}.sim(t)
	r := s.m.result(s)
	want := report.ClassWait{Class: "BE", Jobs: 3, Censored: 1, P50: 10, P95: 20, P99: 20, P95LowerBound: true, P99LowerBound: true}
	if diff := cmp.Diff(want, r.Wait[2]); diff != "" {
		t.Errorf("BE waits (-want +got):\n%s", diff)
	}
	var b strings.Builder
	if err := report.WriteTable(&b, &report.Report{Results: []report.Result{r}}, report.Tables{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "10s / ≥20s / ≥20s") {
		t.Errorf("wait table:\n%s", b.String())
	}
}

// A job that cannot finish even alone still runs, is evicted and loses
// work; the report shows that part apart. One 1-GPU node, window and
// horizon 1000: I (BE, 10,000 s of work) runs 0..100 and is evicted by L
// (LS, 50 s), restarts at 150 and runs to the end. Lost: I's 100 s, all by
// an infeasible job. Goodput 900 s: L's 50 done, I's 850 in progress (and
// infeasible).
func TestGoodputAndLossOfInfeasibleJobs(t *testing.T) {
	jobs := []trace.Job{tj("I", trace.ClassBE, 0, 10000, 1, 1000), tj("L", trace.ClassLS, 100, 50, 1, 1000)}
	s := testRun{policy: "priority", jobs: jobs, nodes: testNodes(1), cfg: Config{Horizon: 1000, WindowEnd: 1000}}.sim(t)
	r := s.m.result(s)
	h := func(sec float64) float64 { return sec / 3600 }
	got := []float64{r.LostGPUHours, r.LostInfeasibleGPUHours, r.GoodputGPUHours, r.Goodput.Done, r.Goodput.InProgress, r.Goodput.InProgressInfeasible}
	want := []float64{h(100), h(100), h(900), h(50), h(850), h(850)}
	if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
		t.Errorf("lost, lost by infeasible, goodput, done, in progress, in progress infeasible (-want +got):\n%s", diff)
	}
	if r.Completed != 1 || r.Unfinished != 0 {
		t.Errorf("completed %d, unfinished %d; want 1, 0 (I is infeasible)", r.Completed, r.Unfinished)
	}
}

// Equal priority never preempts under plain priority: the second LS job waits
// for the first to finish.
func TestPrioritySameClassWaits(t *testing.T) {
	jobs := []trace.Job{
		tj("A", trace.ClassLS, 0, 100, 1, 1000),
		tj("B", trace.ClassLS, 5, 10, 1, 1000),
	}
	s := testRun{policy: "priority", jobs: jobs, nodes: testNodes(1)}.sim(t)
	want := map[string]jobOutcome{
		"A": {Wait: 0, Done: 100},
		"B": {Wait: 95, Done: 110},
	}
	if diff := cmp.Diff(want, outcomes(s)); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
}

// GPU sharing: two 500-milli tasks share one GPU; a third waits; a whole-GPU
// task needs a GPU with all 1000 free.
func TestGPUSharing(t *testing.T) {
	jobs := []trace.Job{
		tj("half1", trace.ClassLS, 0, 100, 1, 500),
		tj("half2", trace.ClassLS, 0, 100, 1, 500),
		tj("half3", trace.ClassLS, 0, 50, 1, 500),
		tj("whole", trace.ClassLS, 0, 10, 1, 1000),
	}
	s := testRun{policy: "priority", jobs: jobs, nodes: testNodes(2)}.sim(t)
	// At 0 (first cycle), in queue order (all created at 0: by name):
	// half1 -> GPU 0; half2 -> GPU 0 (best fit: the fullest GPU that still
	// fits, keeping GPU 1 whole); half3 -> GPU 1; whole finds no GPU with
	// 1000 free and waits for half3 (done at 50).
	want := map[string]jobOutcome{
		"half1": {Wait: 0, Done: 100},
		"half2": {Wait: 0, Done: 100},
		"half3": {Wait: 0, Done: 50},
		"whole": {Wait: 50, Done: 60},
	}
	if diff := cmp.Diff(want, outcomes(s)); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
}

// Across nodes, the node whose victims are of the lowest class wins, then
// the one needing the fewest evictions, then the one losing the least
// work: at 30, "ls" could evict "b" (Burstable, 10 s of work) on node 1,
// "old" (BE, 30 s) on node 0 or "young" (BE, 20 s) on node 2: it evicts
// "young".
func TestPreemptVictimChoice(t *testing.T) {
	jobs := []trace.Job{
		tj("old", trace.ClassBE, 0, 1000, 1, 1000),       // node 0 at 0
		tj("young", trace.ClassBE, 5, 1000, 1, 1000),     // node 1 at 10
		tj("b", trace.ClassBurstable, 15, 1000, 1, 1000), // node 2 at 20
		tj("ls", trace.ClassLS, 30, 10, 1, 1000),
	}
	s := testRun{policy: "priority", jobs: jobs, nodes: testNodes(1, 1, 1)}.sim(t)
	got := outcomes(s)
	if got["young"].Evictions != 1 || got["old"].Evictions != 0 || got["b"].Evictions != 0 || got["ls"].Wait != 0 {
		t.Errorf("got %+v; want young evicted, ls at once", got)
	}
}

// Within a node the library's candidate order decides: two BE jobs share a
// 2-GPU node and an LS job needs one GPU; timebased.Compare
// orders equal priorities by ID, so "a" goes although "z" is younger.
func TestPreemptLibraryOrderWithinNode(t *testing.T) {
	jobs := []trace.Job{
		tj("z", trace.ClassBE, 0, 1000, 1, 1000),
		tj("a", trace.ClassBE, 5, 1000, 1, 1000),
		tj("ls", trace.ClassLS, 30, 10, 1, 1000),
	}
	s := testRun{policy: "priority", jobs: jobs, nodes: testNodes(2)}.sim(t)
	got := outcomes(s)
	if got["a"].Evictions != 1 || got["z"].Evictions != 0 {
		t.Errorf("got %+v; want a evicted (ID order)", got)
	}
}

// Cycles only happen on the grid and only when something changed.
func TestCyclesOnlyWhenNeeded(t *testing.T) {
	jobs := []trace.Job{
		tj("A", trace.ClassLS, 3, 1_000_000, 1, 1000),
		tj("B", trace.ClassLS, 3, 5, 1, 1000),
	}
	s := testRun{policy: "priority", jobs: jobs, nodes: testNodes(2), cfg: Config{WindowEnd: 10}}.sim(t)
	// One cycle at 10 (arrivals at 3); B completes at 15 with nothing
	// pending: no cycle. So exactly one.
	if s.m.cycles != 1 {
		t.Errorf("cycles = %d, want 1", s.m.cycles)
	}
	if got := outcomes(s)["A"].Wait; got != 7 {
		t.Errorf("A wait = %d, want 7 (grid)", got)
	}
}

func TestPercentileNearestRank(t *testing.T) {
	xs := []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for _, tc := range []struct {
		p    float64
		want float64
	}{{50, 5}, {95, 10}, {99, 10}, {10, 1}, {11, 2}} {
		if got := percentile(xs, tc.p); got != tc.want {
			t.Errorf("percentile(1..10, %v) = %v, want %v", tc.p, got, tc.want)
		}
	}
	if got := percentile(nil, 50); got != 0 {
		t.Errorf("percentile(nil) = %v, want 0", got)
	}
}

func TestJain(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want float64
	}{
		{[]float64{1, 1, 1}, 1},
		{[]float64{1, 0, 0, 0}, 0.25},
		{[]float64{0.5, 1}, 2.25 / 2.5},
		{nil, 1},
	} {
		if got := jain(tc.xs); got != tc.want {
			t.Errorf("jain(%v) = %v, want %v", tc.xs, got, tc.want)
		}
	}
}

// With checkpoints every 100 s of work, A (evicted at 250 after running
// 250 s) keeps 200 s and loses 50 s; it resumes at 350 with 800 s to go.
// The 50 lost seconds are wasted where they were spent: [200, 250).
func TestCheckpointKeepsProgress(t *testing.T) {
	jobs := []trace.Job{
		tj("A", trace.ClassBE, 0, 1000, 1, 1000),
		tj("B", trace.ClassLS, 250, 100, 1, 1000),
	}
	s := testRun{policy: "priority", jobs: jobs, nodes: testNodes(1), cfg: Config{WindowEnd: 2000, Checkpoint: 100}}.sim(t)
	want := map[string]jobOutcome{
		"A": {Wait: 150, Done: 1150, Evictions: 1},
		"B": {Wait: 0, Done: 350},
	}
	if diff := cmp.Diff(want, outcomes(s)); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	r := s.m.result(s)
	if got, want := r.LostGPUHours, 50.0/3600; got != want {
		t.Errorf("lost GPU-h = %v, want %v", got, want)
	}
	// Busy 0..1150 of the 2000 s window, 50 s of it wasted.
	if diff := cmp.Diff(report.Utilisation{Total: 1150.0 / 2000, Useful: 1100.0 / 2000, Wasted: 50.0 / 2000}, r.Utilisation, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
		t.Errorf("utilisation (-want +got):\n%s", diff)
	}
	// Time series over [0, 2^30) in 4 buckets: the waste sits in the first.
	if r.UtilSeries[0]-r.UsefulSeries[0] <= 0 || r.UtilSeries[1] != r.UsefulSeries[1] {
		t.Errorf("util %v, useful %v: want the waste in the first bucket only", r.UtilSeries, r.UsefulSeries)
	}
}

// With checkpoints, "least work lost" counts only the work since each
// victim's last checkpoint. Every 100 s: at 200, X (started 0) has just
// saved and would lose nothing, Y (started 60) would lose 40 s; X is
// evicted, although Y is younger and has run less in all.
func TestCheckpointVictimChoice(t *testing.T) {
	jobs := []trace.Job{
		tj("X", trace.ClassBE, 0, 1000, 1, 1000),  // node 0
		tj("Y", trace.ClassBE, 60, 1000, 1, 1000), // node 1
		tj("Z", trace.ClassLS, 200, 10, 1, 1000),
	}
	s := testRun{policy: "priority", jobs: jobs, nodes: testNodes(1, 1), cfg: Config{WindowEnd: 2000, Checkpoint: 100}}.sim(t)
	got := outcomes(s)
	if got["X"].Evictions != 1 || got["Y"].Evictions != 0 || got["Z"].Wait != 0 {
		t.Errorf("evictions X=%d Y=%d, Z wait %d; want X evicted (nothing unsaved), Z at once", got["X"].Evictions, got["Y"].Evictions, got["Z"].Wait)
	}
	if lost := s.m.result(s).LostGPUHours; lost != 0 {
		t.Errorf("lost GPU-h = %v, want 0", lost)
	}
}

// checkConservation fails unless every node's free resources plus what its
// running tasks hold is exactly its capacity, and the running lists agree
// with the jobs' placements.
func checkConservation(t *testing.T, s *sim) {
	t.Helper()
	for n, node := range s.c.Nodes {
		f := s.c.Free[n]
		cpu, mem := f.CPU, f.Mem
		gpu := append([]int32(nil), f.GPU...)
		for _, r := range s.c.Running[n] {
			j := &s.jobs[r.Job]
			if st := &s.st[r.Job]; st.status != statusRunning || st.nodes[r.Task] != int32(n) {
				t.Fatalf("node %d lists task %d of %s, which is not running there", n, r.Task, j.Name)
			}
			cpu += j.CPU
			mem += j.Mem
			for _, g := range s.taskGPUs(r.Job, int(r.Task)) {
				gpu[g] += j.GPUMilli
			}
		}
		if cpu != node.CPU || mem != node.Mem {
			t.Fatalf("node %d: cpu %d/%d, mem %d/%d after the run", n, cpu, node.CPU, mem, node.Mem)
		}
		for g, m := range gpu {
			if m != 1000 {
				t.Fatalf("node %d GPU %d: %d milli accounted for after the run", n, g, m)
			}
		}
	}
}

// Every policy, on a synthetic workload with gangs, elastic jobs and
// failed starts, leaves the cluster's accounts exact: nothing placed by the
// requeue engine, a preemption or a reservation is lost or counted twice.
// The whole trace under the requeue policy is a long case
// (TENURE_LONG_TESTS=1).
func TestConservation(t *testing.T) {
	synthJobs, synthNodes := trace.Synthesize(4, 1500, 3, 0.1)
	pods, err := os.ReadFile("../../data/openb_pod_list_default.csv")
	if err != nil {
		t.Fatal(err)
	}
	nodeList, err := os.ReadFile("../../data/openb_node_list_gpu_node.csv")
	if err != nil {
		t.Fatal(err)
	}
	traceJobs, err := trace.ParsePods("pods.csv", bytes.NewReader(pods), 3)
	if err != nil {
		t.Fatal(err)
	}
	traceNodes, err := trace.ParseNodes("nodes.csv", bytes.NewReader(nodeList))
	if err != nil {
		t.Fatal(err)
	}
	set := testSettings
	set.PreemptMinRuntime = []QueueDuration{{Queue: "be", D: time.Minute}, {Queue: "ls", D: 10 * time.Minute}}
	for _, tc := range []struct {
		jobs     []trace.Job
		nodes    []trace.Node
		load     Load
		policies []string
		long     bool
	}{
		{synthJobs, synthNodes, Load{NodeStride: 1, Speedup: 1, ScaleMix: true, Teams: 3, Interval: 30 * time.Second, Tail: 4 * time.Hour, Buckets: 10, Seed: 4, Settings: set}, nil, false},
		// the engine places contenders in room its commits left
		{traceJobs, traceNodes, Load{NodeStride: 40, Speedup: 15, ScaleMix: true, Teams: 3, Interval: 30 * time.Second, Tail: 48 * time.Hour, Buckets: 10, Seed: 1, Settings: set}, []string{"requeue"}, true},
	} {
		if tc.long && !longtest.Enabled() {
			t.Logf("the whole trace under requeue: a long case, skipped (%s=1 runs it)", longtest.Env)
			continue
		}
		w, err := Prepare(tc.jobs, tc.nodes, tc.load)
		if err != nil {
			t.Fatal(err)
		}
		names := tc.policies
		if names == nil {
			names = ApplicablePolicies(w.FailedStarts)
		}
		for _, name := range names {
			pol, err := newPolicy(name, w)
			if err != nil {
				t.Fatal(err)
			}
			s := newSim(w.Cfg, w.Jobs, w.Nodes, pol, w.Env)
			s.run()
			checkConservation(t, s)
			// The goodput split adds up: every kept stretch of work is
			// counted once, for a job done or one in progress.
			r := s.m.result(s)
			if g := r.Goodput; math.Abs(g.Done+g.InProgress-r.GoodputGPUHours) > 1e-9*r.GoodputGPUHours || g.InProgressInfeasible > g.InProgress {
				t.Errorf("%s: goodput %v, split %+v", name, r.GoodputGPUHours, g)
			}
		}
	}
}

// The report says when a preemption search stopped at the node cap: 70
// one-GPU nodes full of BE jobs, and an LS job arriving; every node would
// do, so the search examines 64 and stops. With 64 nodes it sees them all.
func TestPreemptionSearchCapNoted(t *testing.T) {
	for _, tc := range []struct {
		nodes  int
		capped int
	}{{70, 1}, {preemptNodeLimit, 0}} {
		var jobs []trace.Job
		gpus := make([]int32, tc.nodes)
		for i := range tc.nodes {
			gpus[i] = 1
			jobs = append(jobs, tj(fmt.Sprintf("be%02d", i), trace.ClassBE, 0, 10000, 1, 1000))
		}
		jobs = append(jobs, tj("ls", trace.ClassLS, 100, 10, 1, 1000))
		nodes := make([]trace.Node, tc.nodes)
		for i := range nodes {
			nodes[i] = trace.Node{Name: fmt.Sprint(i), CPU: 100, Mem: 100, GPUs: 1}
		}
		s := testRun{policy: "priority", jobs: jobs, nodes: nodes, cfg: Config{Horizon: 200}}.sim(t)
		var note *report.Note
		for _, n := range s.pol.notes(s) {
			if n.Kind == "preemption_search_capped" {
				note = &n
			}
		}
		switch {
		case tc.capped == 0 && note != nil:
			t.Errorf("%d nodes: note %+v, want none", tc.nodes, *note)
		case tc.capped > 0 && (note == nil || note.Counts["capped"] != tc.capped || note.Counts["searches"] != 1):
			t.Errorf("%d nodes: note %+v, want capped %d of 1 search", tc.nodes, note, tc.capped)
		}
	}
}
