package frag

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

var (
	whole = Task{CPU: 100, Mem: 1, GPUs: 1, Milli: 1000}
	share = Task{CPU: 100, Mem: 1, GPUs: 1, Milli: 500}
	cpu   = Task{CPU: 100, Mem: 1}
)

func node(cpu int64, gpus ...int32) Node { return Node{CPU: cpu, Mem: 1 << 20, GPU: gpus} }

func TestFitsBoundaries(t *testing.T) {
	n := node(100, 500, 499)
	if !Fits(n, share) {
		t.Error("share 500 must fit a GPU with exactly 500 free and exactly its CPU")
	}
	if Fits(node(99, 1000), share) {
		t.Error("one milli-core short must not fit")
	}
	if Fits(node(100, 499, 499), share) {
		t.Error("499 free must not fit a 500 share")
	}
	two := Task{CPU: 1, GPUs: 2, Milli: 1000}
	if Fits(node(100, 1000, 999), two) || !Fits(node(100, 1000, 0, 1000), two) {
		t.Error("two whole GPUs need two fully free GPUs")
	}
}

func TestTaskFragHandComputed(t *testing.T) {
	n := node(1000, 1000, 700, 300, 0)
	for _, tc := range []struct {
		name string
		t    Task
		want int64
	}{
		{"whole GPU: partial GPUs are fragments", whole, 700 + 300},
		{"share 500: only the 300 is a fragment", share, 300},
		{"no GPU asked: every free GPU is a fragment", cpu, 2000},
		{"does not fit (CPU): everything", Task{CPU: 2000, GPUs: 1, Milli: 100}, 2000},
		{"does not fit (GPUs): everything", Task{GPUs: 2, Milli: 1000}, 2000},
	} {
		if got := TaskFrag(n, tc.t); got != tc.want {
			t.Errorf("%s: TaskFrag = %d, want %d", tc.name, got, tc.want)
		}
	}
	w := []Shape{{whole, 3}, {share, 1}, {cpu, 0}}
	if got := NodeFrag(n, w); got != (3*1000+300)/4.0 {
		t.Errorf("NodeFrag = %v, want %v", got, (3*1000+300)/4.0)
	}
	if NodeFrag(n, nil) != 0 {
		t.Error("NodeFrag with no workload must be 0")
	}
	f, free := ClusterFrag([]Node{n, node(0, 1000)}, w)
	if f != (3*1000+300)/4.0+1000 || free != 3000 {
		t.Errorf("ClusterFrag = %v/%d", f, free)
	}
}

func TestStrandedHandComputed(t *testing.T) {
	nodes := []Node{node(1000, 1000, 300), node(0, 1000)}
	s, free := Stranded(nodes, []Task{share, whole})
	if s != 1300 || free != 2300 {
		t.Errorf("Stranded = %d of %d, want 1300 of 2300", s, free)
	}
	if s, _ := Stranded(nodes, []Task{cpu}); s != 0 {
		t.Errorf("nothing waits for GPUs: stranded %d, want 0", s)
	}
}

// Oracle: mark, per waiting task and node it fits, the GPUs it could use.
func TestStrandedAgainstMarking(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, waiting := genNodes(t), genTasks(t)
		var want, wantFree int64
		for _, n := range nodes {
			used := make([]bool, len(n.GPU))
			for _, tk := range waiting {
				if tk.GPUs > 0 && Fits(n, tk) {
					for i, g := range n.GPU {
						used[i] = used[i] || g >= tk.Milli
					}
				}
			}
			anyGPU := slices.ContainsFunc(waiting, func(tk Task) bool { return tk.GPUs > 0 })
			for i, g := range n.GPU {
				wantFree += int64(g)
				if anyGPU && !used[i] {
					want += int64(g)
				}
			}
		}
		s, free := Stranded(nodes, waiting)
		if s != want || free != wantFree {
			t.Fatalf("Stranded = %d/%d, oracle %d/%d", s, free, want, wantFree)
		}
	})
}

func genNodes(t *rapid.T) []Node {
	n := rapid.IntRange(0, 6).Draw(t, "nodes")
	out := make([]Node, n)
	for i := range out {
		g := rapid.IntRange(0, 4).Draw(t, "gpus")
		out[i] = Node{CPU: rapid.Int64Range(0, 4).Draw(t, "cpu"), Mem: 10, GPU: make([]int32, g)}
		for j := range out[i].GPU {
			out[i].GPU[j] = int32(250 * rapid.IntRange(0, 4).Draw(t, "free"))
		}
	}
	return out
}

func genTasks(t *rapid.T) []Task {
	n := rapid.IntRange(0, 4).Draw(t, "tasks")
	out := make([]Task, n)
	for i := range out {
		g := int32(rapid.IntRange(0, 3).Draw(t, "g"))
		m := int32(1000)
		if g == 1 {
			m = int32(250 * rapid.IntRange(1, 4).Draw(t, "m"))
		}
		if g == 0 {
			m = 0
		}
		out[i] = Task{CPU: rapid.Int64Range(0, 4).Draw(t, "c"), Mem: 1, GPUs: g, Milli: m}
	}
	return out
}

func TestChoosePolicies(t *testing.T) {
	// Only 500-shares arrive. A 300 share: best-fit packs it onto the 700
	// GPU, leaving 400 that no 500-share can use; the gradient keeps the
	// 700 intact and takes the whole GPU (700 left still fits a 500).
	nodes := []Node{node(1000, 700), node(1000, 1000)}
	small := Task{CPU: 1, GPUs: 1, Milli: 300}
	w := []Shape{{share, 1}}
	if i, g := Choose(FirstFit, nodes, small, w); i != 0 || !slices.Equal(g, []int{0}) {
		t.Errorf("first-fit = %d %v, want 0 [0]", i, g)
	}
	if i, _ := Choose(BestFit, nodes, small, w); i != 0 {
		t.Errorf("best-fit = %d, want 0", i)
	}
	if i, g := Choose(FragGradient, nodes, small, w); i != 1 || !slices.Equal(g, []int{0}) {
		t.Errorf("frag-gradient = %d %v, want 1 [0]", i, g)
	}
	// Within a node the gradient picks the GPU: [600, 1000] and a 400
	// share with whole-GPU and 500-share demand: using the 600 GPU lowers
	// the fragmentation (600 → 200), using the 1000 raises it.
	i, g := Choose(FragGradient, []Node{node(1000, 600, 1000)}, Task{CPU: 1, GPUs: 1, Milli: 400}, []Shape{{whole, 1}, {share, 1}})
	if i != 0 || !slices.Equal(g, []int{0}) {
		t.Errorf("frag-gradient GPU = %d %v, want 0 [0]", i, g)
	}
	if i, _ := Choose(BestFit, []Node{node(0, 1000)}, small, w); i != -1 {
		t.Errorf("nothing fits: %d, want -1", i)
	}
}

// Every policy places exactly when first-fit does, on a node where the
// task fits, and best-fit leaves no less free GPU than any other choice.
func TestChooseAgainstNaive(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, tasks := genNodes(t), genTasks(t)
		if len(tasks) == 0 {
			return
		}
		tk := tasks[0]
		anyFit := slices.ContainsFunc(nodes, func(n Node) bool { return Fits(n, tk) })
		for _, p := range []Policy{FirstFit, BestFit, FragGradient} {
			i, gpus := Choose(p, nodes, tk, []Shape{{share, 1}, {whole, 1}})
			if (i >= 0) != anyFit || (i >= 0 && (!Fits(nodes[i], tk) || int32(len(gpus)) != tk.GPUs)) {
				t.Fatalf("%v chose %d %v for %+v", p, i, gpus, tk)
			}
			for _, g := range gpus {
				if nodes[i].GPU[g] < tk.Milli {
					t.Fatalf("%v chose GPU %d with %d free for %+v", p, g, nodes[i].GPU[g], tk)
				}
			}
			if p == BestFit && i >= 0 {
				for _, n := range nodes {
					if Fits(n, tk) && FreeGPU(n) < FreeGPU(nodes[i]) {
						t.Fatalf("best-fit chose %d with %d free; a fitting node has %d", i, FreeGPU(nodes[i]), FreeGPU(n))
					}
				}
			}
		}
	})
}

func TestParsePolicy(t *testing.T) {
	for _, p := range []Policy{FirstFit, BestFit, FragGradient} {
		if got, err := ParsePolicy(p.String()); err != nil || got != p {
			t.Errorf("ParsePolicy(%q) = %v %v", p.String(), got, err)
		}
	}
	if _, err := ParsePolicy("worst-fit"); err == nil {
		t.Error("ParsePolicy(worst-fit) succeeded")
	}
}

// Walking the nodes with Score picks what Choose picks.
func TestScoreAgreesWithChoose(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, tasks := genNodes(t), genTasks(t)
		if len(tasks) == 0 {
			return
		}
		w := []Shape{{share, 1}, {whole, 2}}
		for _, p := range []Policy{FirstFit, BestFit, FragGradient} {
			best, bestScore := -1, 0.0
			for i, n := range nodes {
				if !Fits(n, tasks[0]) {
					continue
				}
				if sc := Score(p, n, tasks[0], w); best < 0 || sc < bestScore {
					best, bestScore = i, sc
				}
			}
			if got, _ := Choose(p, nodes, tasks[0], w); got != best {
				t.Fatalf("%v: Choose %d, Score walk %d", p, got, best)
			}
		}
	})
}
