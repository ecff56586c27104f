package main

import (
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// tj builds a one-GPU-share test job (cpu and memory 1 each).
func tj(name string, c Class, arrival, runtime int64, gpus, milli int32) Job {
	return Job{Name: name, Class: c, Arrival: arrival, Runtime: runtime, CPU: 1, Mem: 1, GPUs: gpus, GPUMilli: milli}
}

func testNodes(gpus ...int32) []Node {
	var ns []Node
	for i, g := range gpus {
		ns = append(ns, Node{Name: "n" + string(rune('0'+i)), CPU: 100, Mem: 100, GPUs: g})
	}
	return ns
}

var testSettings = settings{
	MinRuntime: []queueDuration{{"be", 5 * time.Minute}, {"burstable", 15 * time.Minute}, {"ls", 30 * time.Minute}},
}

// simulateTest runs pol over jobs on nodes with a 10 s cycle grid and the
// measurement window [0, end].
func simulateTest(t *testing.T, pol policy, jobs []Job, nodes []Node, end int64) *sim {
	t.Helper()
	e, err := newEnv(jobs, 1, testSettings)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Interval: 10, Horizon: 1 << 30, WindowStart: 0, WindowEnd: end, Buckets: 4}
	s := newSim(cfg, jobs, nodes, pol, e)
	s.m.leaf = e.leafIndex
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

// Three jobs on one 1-GPU node, cycle every 10 s:
//
//	t=0   A (BE, 100 s) arrives; the cycle at 0 starts it.
//	t=10  B (LS, 50 s) arrives; the cycle at 10 evicts A (ran 10 s) and starts B.
//	t=20  C (BE, 30 s) arrives; A (older) and C wait behind B.
//	t=60  B completes; A restarts from scratch.
//	t=160 A completes; C starts.
//	t=190 C completes.
func TestPriorityThreeJobsOneNode(t *testing.T) {
	jobs := []Job{
		tj("A", ClassBE, 0, 100, 1, 1000),
		tj("B", ClassLS, 10, 50, 1, 1000),
		tj("C", ClassBE, 20, 30, 1, 1000),
	}
	s := simulateTest(t, priorityPolicy{}, jobs, testNodes(1), 200)
	want := map[string]jobOutcome{
		"A": {Wait: 60, Done: 160, Evictions: 1},
		"B": {Wait: 0, Done: 60},
		"C": {Wait: 140, Done: 190},
	}
	if diff := cmp.Diff(want, outcomes(s)); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	r := s.m.result("priority")
	if r.Evictions != 1 || r.Thrash != 1 {
		t.Errorf("evictions, thrash = %d, %d; want 1, 1 (A ran 10 s < 5 min)", r.Evictions, r.Thrash)
	}
	if want := 10.0 / 3600; r.LostGPUHours != want {
		t.Errorf("lost GPU-h = %v, want %v", r.LostGPUHours, want)
	}
	// Busy: A 0..10, B 10..60, A 60..160, C 160..190 => 190 of 200 GPU-seconds.
	if want := 190.0 / 200; r.GPUUtilisation != want {
		t.Errorf("utilisation = %v, want %v", r.GPUUtilisation, want)
	}
	wantWait := []ClassWait{
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
	// Service ratios (GPU weights are equal): queue be-a (A, C) ran
	// 100+30 s of 160+170 s in the system, 13/33; ls-a (B) 50 of 50, 1.
	// J = (1+13/33)² / (2·(1+(13/33)²)) = 529/629.
	if want := 529.0 / 629; math.Abs(r.Jain-want) > 1e-12 {
		t.Errorf("Jain = %v, want 529/629 = %v", r.Jain, want)
	}
}

// Jobs still pending or running at the horizon enter the waits and Jain's
// index with censored values. One 1-GPU node, stop at 500: A (BE, 1000 s)
// starts at 0 and is evicted at 100 by B (LS, 1000 s), which runs to the end.
//
//	no checkpoints: A waits 500 − 0 − 0 = 500, B 500 − 100 − 400 = 0;
//	  service be-a 0/500, ls-a 400/400: J = 1² / (2·1) = 1/2.
//	checkpoint 50 s: A keeps the 100 s it ran and waits 500 − 0 − 100 = 400;
//	  be-a 100/500 = 0.2: J = 1.2² / (2·1.04) = 9/13.
//
// Either way: one eviction (a thrash: A ran 100 s < 5m), cycles at 0, 100
// and 110 (the evicted A is retried one grid step later), the GPU always
// busy, A pending 400 of the 500 s.
func TestUnfinishedAreCensored(t *testing.T) {
	jobs := []Job{
		tj("A", ClassBE, 0, 1000, 1, 1000),
		tj("B", ClassLS, 100, 1000, 1, 1000),
	}
	for _, tc := range []struct {
		checkpoint, waitA, lost int64
		jain                    float64
	}{
		{0, 500, 100, 1.0 / 2},
		{50, 400, 0, 9.0 / 13},
	} {
		e, err := newEnv(jobs, 1, testSettings)
		if err != nil {
			t.Fatal(err)
		}
		cfg := Config{Interval: 10, Horizon: 500, WindowStart: 0, WindowEnd: 500, Buckets: 1, Checkpoint: tc.checkpoint}
		s := newSim(cfg, jobs, testNodes(1), priorityPolicy{}, e)
		s.m.leaf = e.leafIndex
		s.run()
		r := s.m.result("priority")
		want := Result{Policy: "priority", Unfinished: 2, Evictions: 1, Thrash: 1, Cycles: 3,
			GPUUtilisation: 1, LostGPUHours: float64(tc.lost) / 3600, Jain: r.Jain,
			Wait: []ClassWait{
				{Class: "LS", Jobs: 1},
				{Class: "Burstable"},
				{Class: "BE", Jobs: 1, P50: float64(tc.waitA), P95: float64(tc.waitA), P99: float64(tc.waitA)},
			},
			UtilSeries: []float64{1}, PendingSeries: []float64{400.0 / 500}}
		if diff := cmp.Diff(want, r); diff != "" {
			t.Errorf("checkpoint %d: result (-want +got):\n%s", tc.checkpoint, diff)
		}
		if math.Abs(r.Jain-tc.jain) > 1e-12 {
			t.Errorf("checkpoint %d: Jain = %v, want %v", tc.checkpoint, r.Jain, tc.jain)
		}
	}
}

// Equal priority never preempts under plain priority: the second LS job waits
// for the first to finish.
func TestPrioritySameClassWaits(t *testing.T) {
	jobs := []Job{
		tj("A", ClassLS, 0, 100, 1, 1000),
		tj("B", ClassLS, 5, 10, 1, 1000),
	}
	s := simulateTest(t, priorityPolicy{}, jobs, testNodes(1), 200)
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
	jobs := []Job{
		tj("half1", ClassLS, 0, 100, 1, 500),
		tj("half2", ClassLS, 0, 100, 1, 500),
		tj("half3", ClassLS, 0, 50, 1, 500),
		tj("whole", ClassLS, 0, 10, 1, 1000),
	}
	s := simulateTest(t, priorityPolicy{}, jobs, testNodes(2), 200)
	// At 0 (first cycle), in pending order: half1 -> GPU 0; half2 -> GPU 0
	// (best fit: the fullest GPU that still fits, keeping GPU 1 whole); half3
	// -> GPU 1; whole finds no GPU with 1000 free and waits for half3 (done
	// at 50).
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

// The victim choice: the youngest lower-priority job on the node needing the
// fewest evictions.
func TestPreemptVictimChoice(t *testing.T) {
	jobs := []Job{
		tj("old", ClassBE, 0, 1000, 1, 1000),    // node 0
		tj("young", ClassBE, 20, 1000, 1, 1000), // node 1
		tj("ls", ClassLS, 30, 10, 1, 1000),
	}
	s := simulateTest(t, priorityPolicy{}, jobs, testNodes(1, 1), 2000)
	got := outcomes(s)
	if got["young"].Evictions != 1 || got["old"].Evictions != 0 {
		t.Errorf("evictions old=%d young=%d; want the younger job evicted", got["old"].Evictions, got["young"].Evictions)
	}
	if got["ls"].Wait != 0 {
		t.Errorf("ls wait = %d, want 0", got["ls"].Wait)
	}
}

// Cycles only happen on the grid and only when something changed.
func TestCyclesOnlyWhenNeeded(t *testing.T) {
	jobs := []Job{
		tj("A", ClassLS, 3, 1_000_000, 1, 1000),
		tj("B", ClassLS, 3, 5, 1, 1000),
	}
	s := simulateTest(t, priorityPolicy{}, jobs, testNodes(2), 10)
	// One cycle at 10 (arrivals at 3), one at 20 (B completed at 15, but
	// nothing is pending: no cycle). So exactly one.
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
func TestCheckpointKeepsProgress(t *testing.T) {
	jobs := []Job{
		tj("A", ClassBE, 0, 1000, 1, 1000),
		tj("B", ClassLS, 250, 100, 1, 1000),
	}
	e, err := newEnv(jobs, 1, testSettings)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Interval: 10, Horizon: 1 << 30, WindowStart: 0, WindowEnd: 2000, Buckets: 1, Checkpoint: 100}
	s := newSim(cfg, jobs, testNodes(1), priorityPolicy{}, e)
	s.m.leaf = e.leafIndex
	s.run()
	want := map[string]jobOutcome{
		"A": {Wait: 150, Done: 1150, Evictions: 1},
		"B": {Wait: 0, Done: 350},
	}
	if diff := cmp.Diff(want, outcomes(s)); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	if got, want := s.m.result("priority").LostGPUHours, 50.0/3600; got != want {
		t.Errorf("lost GPU-h = %v, want %v", got, want)
	}
}

// With checkpoints, "least work lost" counts only the work since each
// victim's last checkpoint. Every 100 s: at 200, X (started 0) has just
// saved and would lose nothing, Y (started 60) would lose 40 s; X is
// evicted, although Y is younger and has run less in all.
func TestCheckpointVictimChoice(t *testing.T) {
	jobs := []Job{
		tj("X", ClassBE, 0, 1000, 1, 1000),  // node 0
		tj("Y", ClassBE, 60, 1000, 1, 1000), // node 1
		tj("Z", ClassLS, 200, 10, 1, 1000),
	}
	e, err := newEnv(jobs, 1, testSettings)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Interval: 10, Horizon: 1 << 30, WindowStart: 0, WindowEnd: 2000, Buckets: 1, Checkpoint: 100}
	s := newSim(cfg, jobs, testNodes(1, 1), priorityPolicy{}, e)
	s.m.leaf = e.leafIndex
	s.run()
	got := outcomes(s)
	if got["X"].Evictions != 1 || got["Y"].Evictions != 0 || got["Z"].Wait != 0 {
		t.Errorf("evictions X=%d Y=%d, Z wait %d; want X evicted (nothing unsaved), Z at once", got["X"].Evictions, got["Y"].Evictions, got["Z"].Wait)
	}
	if lost := s.m.result("priority").LostGPUHours; lost != 0 {
		t.Errorf("lost GPU-h = %v, want 0", lost)
	}
}
