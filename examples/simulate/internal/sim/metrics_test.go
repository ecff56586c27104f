package sim

import (
	"math"
	"slices"
	"testing"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/report"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"
)

// Fair share, by hand. Two BE teams on one 2-GPU node, plain priority (no
// preemption within a class), window [0, 200]:
//
//	X1, X2 (be-a, 1 GPU, 100 s) start at 0; Y (be-b, 1 GPU, 50 s) arrives
//	at 10 and waits until 100, runs to 150.
//
// Fair shares (GPU milli), per interval:
//
//	[0,10)    be-a asks 2000, be-b 0:    fair be-a 2000, be-b 0
//	[10,100)  be-a asks 2000, be-b 1000: the class gets 2000 (the
//	          cluster), water-filled: 1000 each (within the class: the
//	          2000 it holds, also 1000 each)
//	[100,150) be-b asks 1000:            be-b 1000
//
// Held: be-a 2000·100 = 200,000; be-b 1000·50 = 50,000. Fair: be-a
// 2000·10 + 1000·90 = 110,000; be-b 1000·90 + 1000·50 = 140,000.
// held/fair: be-a 20/11, be-b 5/14. Across all queues be-a counts as 1
// (above its share: it wronged no one); within BE its 20/11 counts, since
// there the shares add up to what the class held.
func TestFairShareByHand(t *testing.T) {
	jobs := []trace.Job{
		inTeam(tj("X1", trace.ClassBE, 0, 100, 1, 1000), 0),
		inTeam(tj("X2", trace.ClassBE, 0, 100, 1, 1000), 0),
		inTeam(tj("Y", trace.ClassBE, 10, 50, 1, 1000), 1),
	}
	s := testRun{policy: "priority", teams: 2, jobs: jobs, nodes: testNodes(2), cfg: Config{WindowEnd: 200}}.sim(t)
	r := s.m.result(s)
	h := func(milliS float64) float64 { return milliS / 1000 / 3600 }
	want := []report.QueueResult{
		{Queue: "ls-a"}, {Queue: "ls-b"}, {Queue: "burstable-a"}, {Queue: "burstable-b"},
		{Queue: "be-a", Jobs: 2, HeldGPUHours: h(200000), FairGPUHours: h(110000), FairInClassGPUHours: h(110000),
			ShareOfFair: 20.0 / 11, ShareOfFairInClass: 20.0 / 11},
		{Queue: "be-b", Jobs: 1, HeldGPUHours: h(50000), FairGPUHours: h(140000), FairInClassGPUHours: h(140000),
			ShareOfFair: 5.0 / 14, ShareOfFairInClass: 5.0 / 14, WaitP95: 90},
	}
	if diff := cmp.Diff(want, r.Queues, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
		t.Errorf("queues (-want +got):\n%s", diff)
	}
	x, y := 20.0/11, 5.0/14
	j := (x + y) * (x + y) / (2 * (x*x + y*y))
	capped := (1 + y) * (1 + y) / (2 * (1 + y*y))
	wantF := report.Fairness{Across: capped, MinShare: y, WithinClass: []report.ClassFairness{
		{Class: "LS", Jain: 1, MinShare: 1}, {Class: "Burstable", Jain: 1, MinShare: 1}, {Class: "BE", Jain: j, MinShare: y}}}
	if diff := cmp.Diff(wantF, r.Fairness, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
		t.Errorf("fairness (-want +got):\n%s", diff)
	}
}

// Across classes the fair share follows priority: an LS queue asking for
// the whole GPU has a fair share of all of it, and the BE queue holding it
// meanwhile (min-runtime protects it) holds more than its share of 0,
// while within its class it holds exactly its share.
//
//	A (BE, 1 GPU, 1000 s) starts at 0; L (LS, 100 s) arrives at 100 and
//	evicts it at 300 (5m protection); L runs to 400; A restarts at 400.
//	Window [0, 500]: fair BE = 100 (alone) + 100 (400..500) GPU-s; held
//	300 + 100. Fair LS = 300 (100..400); held 100.
func TestFairShareAcrossClasses(t *testing.T) {
	jobs := []trace.Job{tj("A", trace.ClassBE, 0, 1000, 1, 1000), tj("L", trace.ClassLS, 100, 100, 1, 1000)}
	s := testRun{policy: "minruntime", jobs: jobs, nodes: testNodes(1), cfg: Config{WindowEnd: 500}}.sim(t)
	r := s.m.result(s)
	got := map[string][2]float64{}
	for _, q := range r.Queues {
		got[q.Queue] = [2]float64{q.ShareOfFair, q.ShareOfFairInClass}
	}
	want := map[string][2]float64{"ls-a": {100.0 / 300, 1}, "burstable-a": {0, 0}, "be-a": {400.0 / 200, 1}}
	if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
		t.Errorf("held/fair, held/fair in class (-want +got):\n%s", diff)
	}
}

// waterLevel against a naive oracle: the level is the largest L with
// Σ min(L, cap) <= total, found by bisection.
func TestWaterLevelOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		caps := rapid.SliceOfN(rapid.Float64Range(0, 1e4), 1, 8).Draw(t, "caps")
		total := rapid.Float64Range(0, 5e4).Draw(t, "total")
		sum := 0.0
		for _, c := range caps {
			sum += c
		}
		got := waterLevel(total, slices.Clone(caps))
		if total >= sum {
			if want := slices.Max(caps); got != want {
				t.Fatalf("total %v covers every cap: level %v, want the largest cap %v", total, got, want)
			}
			return
		}
		lo, hi := 0.0, slices.Max(caps)
		for range 200 {
			mid := (lo + hi) / 2
			s := 0.0
			for _, c := range caps {
				s += math.Min(mid, c)
			}
			if s <= total {
				lo = mid
			} else {
				hi = mid
			}
		}
		if math.Abs(got-lo) > 1e-6*(1+lo) {
			t.Fatalf("waterLevel(%v, %v) = %v, oracle %v", total, caps, got, lo)
		}
	})
}
