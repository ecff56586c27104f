package alloc

import (
	"math"
	"slices"
	"testing"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"
)

// The hand-made trace: one 2-GPU node, a 400 share, then a 364 share;
// only 400 and 364 shares arrive, so they are the target workload. The
// first share takes GPU 0 (600 left). Placing the second on the fuller
// GPU 0 leaves 236 that neither shape can use (0.236 GPUs fragmented);
// the gradient puts it on GPU 1, leaving 600 and 636, both usable.
func TestGradientTakesItsOwnGPU(t *testing.T) {
	pods := []trace.Request{{Name: "a", CPU: 1, GPUs: 1, GPUMilli: 400}, {Name: "b", CPU: 1, GPUs: 1, GPUMilli: 364}}
	nodes := newNodes([]trace.Node{{Name: "n", CPU: 10, Mem: 10, GPUs: 2}})
	ps, _ := internPods(pods)
	w := TargetWorkload(pods)
	scratch := make([]int32, 2)
	for _, tc := range []struct {
		pol      Policy
		wantFrag float64
	}{{FragGradient, 0}, {BestFit, 236}} {
		n := nodes[0]
		n.gpu = slices.Clone(n.gpu)
		for i := range ps {
			n.place(&ps[i], chooseGPUs(tc.pol, &n, &ps[i], w, scratch, nil))
		}
		if f := Fragmentation(n.cpu, n.gpu, n.model, w); math.Abs(f-tc.wantFrag) > 1e-9 {
			t.Errorf("%v: GPUs %v, fragmentation %v, want %v", tc.pol, n.gpu, f, tc.wantFrag)
		}
	}
}

func TestFragmentationHandComputed(t *testing.T) {
	w := []Shape{{CPU: 4, GPUs: 1, Milli: 500, Weight: 0.5}, {CPU: 1, Weight: 0.25}, {CPU: 2, GPUs: 2, Milli: 1000, Models: []string{"T4"}, Weight: 0.25}}
	gpu := []int32{1000, 300, 600}
	// 500 share: the 300 is a fragment; CPU-only: all 1900; 2 whole T4s on a
	// P100: all 1900.
	if got, want := Fragmentation(8, gpu, "P100", w), 0.5*300+0.25*1900+0.25*1900; math.Abs(got-want) > 1e-9 {
		t.Errorf("Fragmentation = %v, want %v", got, want)
	}
	// Too little CPU for the share: all of it.
	if got, want := Fragmentation(3, gpu, "T4", w), 0.5*1900+0.25*1900+0.25*1900; math.Abs(got-want) > 1e-9 {
		t.Errorf("Fragmentation = %v, want %v", got, want)
	}
}

func TestScoresHandComputed(t *testing.T) {
	n := &node{cpu: 64000, mem: 1, gpu: []int32{1000, 1000, 200, 1000}, kinds: map[int32]int32{0: 1}}
	share := &pod{cpu: 32000, gpus: 1, milli: 100}
	whole := &pod{cpu: 0, gpus: 2, milli: 1000}
	for _, tc := range []struct {
		name string
		got  int64
		want int64
	}{
		// 1 − (0.5·0.25 + (3200/8000)·(100/8000))/2
		{"dot-prod", dotProdScore(n, share), 93}, // 93.5 truncated
		// only GPU-sharing pods here: 75 + 25·(8000−3200)/8000
		{"clustering share", clusteringScore(n, share), 75 + 15},
		{"clustering whole", clusteringScore(n, whole), 15},
		// the 200 GPU: 100 − 20/10
		{"packing share", packingScore(n, share), 98},
		{"packing whole", packingScore(n, whole), 48},
		// 1 − (0.5·32000/128000 + 0.5·3100/8000)
		{"best-fit", bestFitScore(n, share), 68}, // 68.125 truncated
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %d, want %d", tc.name, tc.got, tc.want)
		}
	}
}

func TestWorkloadInflates(t *testing.T) {
	pods := []trace.Request{{Name: "b", GPUs: 1, GPUMilli: 1000}, {Name: "a", GPUs: 1, GPUMilli: 500}, {Name: "c"}}
	for seed := range int64(20) {
		order := Workload(pods, 10000, 1.3, newReplay(pods, []trace.Node{{Name: "n", GPUs: 1}}, Config{Seed: seed}).rng)
		var total int64
		seen := map[int]bool{}
		for k, i := range order {
			total += demand(pods[i])
			if k < len(pods) {
				seen[i] = true
			}
		}
		if len(seen) != len(pods) || total > 13000 || total < 13000-1000 {
			t.Fatalf("seed %d: order %v asks %d milli: want every pod first, then up to 13000", seed, order, total)
		}
	}
}

func TestDiscretize(t *testing.T) {
	r := Result{CapacityMilli: 1000, Points: []Point{{4, 4}, {6, 6}, {20, 10}, {21, 20}}}
	c := Discretize(r)
	// 0.4% rounds to 0, 0.6% to 1; 2.0 and 2.1 to 2 (mean of 1.0 and 2.0).
	if c[0] != 0.4 || c[1] != 0.6 || c[2] != 1.5 || c[3] != 1.5 || !math.IsNaN(c[5]) {
		t.Errorf("Discretize = %v", c[:6])
	}
}

func TestRunRejectsBadInput(t *testing.T) {
	pods := []trace.Request{{Name: "a", GPUs: 1, GPUMilli: 1000}}
	nodes := []trace.Node{{Name: "n", CPU: 1, Mem: 1, GPUs: 1}}
	for _, c := range []Config{{Policy: -1, Tune: 1}, {Policy: numPolicies, Tune: 1}, {Tune: 0}, {Tune: math.NaN()}, {Tune: 11}} {
		if _, err := Run(pods, nodes, c); err == nil {
			t.Errorf("Run(%+v) succeeded", c)
		}
	}
	if _, err := Run(pods, []trace.Node{{Name: "n", CPU: 1}}, Config{Tune: 1}); err == nil {
		t.Error("no GPUs: Run succeeded")
	}
	if _, err := ParsePolicy("first-fit"); err == nil {
		t.Error("ParsePolicy(first-fit) succeeded")
	}
}

// Equal scores go to the node whose name sorts first, whatever the list's
// order (the paper's simulator's selectHost): a CPU-only pod scores the
// same on every node under clustering, packing and (here) the gradient,
// so it lands on node "n0", the one with 10 CPUs.
func TestTiesGoToTheFirstName(t *testing.T) {
	pods := []trace.Request{{Name: "cpu", CPU: 1, Mem: 1}, {Name: "gpu", CPU: 1, Mem: 1, GPUs: 1, GPUMilli: 1000}}
	nodes := []trace.Node{
		{Name: "n2", CPU: 30, Mem: 10, GPUs: 1},
		{Name: "n0", CPU: 10, Mem: 10, GPUs: 1},
		{Name: "n1", CPU: 20, Mem: 10, GPUs: 1},
	}
	for _, pol := range []Policy{GPUClustering, GPUPacking, FragGradient} {
		for seed := range int64(5) {
			r := newReplay(pods, nodes, Config{Policy: pol, Seed: seed, Tune: 1})
			if n := r.pick(&r.pods[0]); r.nodes[n].cpu != 10 {
				t.Errorf("%v, seed %d: the CPU-only pod went to the node with %d CPUs, want n0 (10)", pol, seed, r.nodes[n].cpu)
			}
		}
	}
}
