package sim

import (
	"math"
	"testing"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/frag"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"
)

// A 1-GPU job, a 2-GPU node first and a 1-GPU node second: first fit
// takes the first node, best fit the node it fills. So does frag-gradient:
// with a 2-GPU job (C, later) half the workload, A on the 2-GPU node would
// leave a GPU that C cannot use (fragmentation +500 thousandths), on the
// 1-GPU node it removes the GPU that C could never use (−500).
func TestPlacementSetting(t *testing.T) {
	jobs := []trace.Job{tj("A", trace.ClassBE, 0, 1<<20, 1, 1000), tj("C", trace.ClassBE, 50, 10, 2, 1000)}
	for _, tc := range []struct {
		p    frag.Policy
		want int32
	}{{frag.FirstFit, 0}, {frag.BestFit, 1}, {frag.FragGradient, 1}} {
		s := testRun{policy: "priority", jobs: jobs, nodes: testNodes(2, 1), cfg: Config{Horizon: 100, WindowEnd: 100, Placement: tc.p}}
		sim := s.sim(t)
		if got := sim.st[0].nodes[0]; got != tc.want {
			t.Errorf("%v: node %d, want %d", tc.p, got, tc.want)
		}
	}
}

// A waiting job that needs CPU the node no longer has strands the node's
// free GPU for the whole window.
func TestStrandedGPUs(t *testing.T) {
	a := tj("A", trace.ClassBE, 0, 1<<20, 1, 1000)
	a.CPU = 100 // all of the node's CPU
	b := tj("B", trace.ClassBE, 0, 100, 1, 1000)
	s := testRun{policy: "priority", jobs: []trace.Job{a, b}, nodes: testNodes(2), cfg: Config{Horizon: 1000, WindowEnd: 1000}}.sim(t)
	f := s.m.result(s).Fragmentation
	if math.Abs(f.StrandedGPUs-1) > 1e-9 || math.Abs(f.FreeGPUs-1) > 1e-9 || f.StrandedShare != 1 {
		t.Errorf("fragmentation %+v, want 1 of 1 free GPU stranded", f)
	}
	// Nothing waits: nothing is stranded.
	s = testRun{policy: "priority", jobs: []trace.Job{a}, nodes: testNodes(2), cfg: Config{Horizon: 1000, WindowEnd: 1000}}.sim(t)
	if f := s.m.result(s).Fragmentation; f.StrandedGPUs != 0 || math.Abs(f.FreeGPUs-1) > 1e-9 {
		t.Errorf("nothing waiting: %+v", f)
	}
}

func TestWorkloadShapes(t *testing.T) {
	jobs := []trace.Job{tj("a", 0, 0, 1, 1, 500), tj("b", 0, 0, 1, 1, 500), tj("c", 0, 0, 1, 1, 1000)}
	got := WorkloadShapes(jobs)
	if len(got) != 2 || got[0].Weight != 2 || got[0].Task.Milli != 500 || got[1].Weight != 1 {
		t.Errorf("WorkloadShapes = %+v", got)
	}
}

// The hand-made trace: one 2-GPU node, a 400 share then a 364 share,
// both running to the end. The gradient scores the node with the second
// share on the idle GPU (600 and 636 left, usable by both shapes); taking
// the fullest GPU instead would leave 236 that neither can use (0.236
// GPUs fragmented). Frag-gradient must place it where it scored it.
func TestFragGradientTakesItsGPU(t *testing.T) {
	jobs := []trace.Job{tj("A", trace.ClassBE, 0, 1<<20, 1, 400), tj("B", trace.ClassBE, 10, 1<<20, 1, 364)}
	for _, tc := range []struct {
		p        frag.Policy
		wantFrag float64
	}{{frag.FragGradient, 0}, {frag.BestFit, 236}} {
		s := testRun{policy: "priority", jobs: jobs, nodes: testNodes(2), cfg: Config{Horizon: 100, WindowEnd: 100, Placement: tc.p}}.sim(t)
		n := nodeOf(&s.c.Free[0])
		if got, _ := frag.ClusterFrag([]frag.Node{n}, s.shapes); math.Abs(got-tc.wantFrag) > 1e-9 {
			t.Errorf("%v: free GPUs %v, fragmentation %v thousandths, want %v", tc.p, n.GPU, got, tc.wantFrag)
		}
	}
}
