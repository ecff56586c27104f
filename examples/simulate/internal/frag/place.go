package frag

import (
	"fmt"
	"math"
)

// Policy chooses among the nodes a task fits on.
type Policy int

const (
	// FirstFit takes the lowest-numbered node the task fits on.
	FirstFit Policy = iota
	// BestFit takes the node left with the least free GPU capacity, then
	// the least free CPU, then the lowest number.
	BestFit
	// FragGradient takes the node whose fragmentation against the target
	// workload grows least (ties: the lowest number), in the spirit of
	// Weng et al.'s fragmentation-gradient descent.
	FragGradient
)

// ParsePolicy parses a -placement value: first-fit, best-fit or
// frag-gradient.
func ParsePolicy(s string) (Policy, error) {
	for _, p := range []Policy{FirstFit, BestFit, FragGradient} {
		if p.String() == s {
			return p, nil
		}
	}
	return FirstFit, fmt.Errorf("frag: placement %q is not first-fit, best-fit or frag-gradient", s)
}

// String returns the flag spelling of p.
func (p Policy) String() string {
	switch p {
	case BestFit:
		return "best-fit"
	case FragGradient:
		return "frag-gradient"
	}
	return "first-fit"
}

// Choose returns the index of the node to place t on under policy p, the
// GPUs to use there, and -1 when t fits nowhere. w is the target workload
// (used only by FragGradient). nodes is not modified.
func Choose(p Policy, nodes []Node, t Task, w []Shape) (int, []int) {
	switch p {
	case BestFit:
		return bestFit(nodes, t)
	case FragGradient:
		return fragGradient(nodes, t, w)
	}
	for i, n := range nodes {
		if gpus, ok := Take(n, t); ok {
			return i, gpus
		}
	}
	return -1, nil
}

// bestFit is Choose for BestFit.
func bestFit(nodes []Node, t Task) (int, []int) {
	best := -1
	var bestGPU, bestCPU int64
	for i, n := range nodes {
		if !Fits(n, t) {
			continue
		}
		g, c := FreeGPU(n)-int64(t.GPUs)*int64(t.Milli), n.CPU-t.CPU
		if best < 0 || g < bestGPU || (g == bestGPU && c < bestCPU) {
			best, bestGPU, bestCPU = i, g, c
		}
	}
	if best < 0 {
		return -1, nil
	}
	gpus, _ := Take(nodes[best], t)
	return best, gpus
}

// fragGradient is Choose for FragGradient.
func fragGradient(nodes []Node, t Task, w []Shape) (int, []int) {
	best, bestGPUs, bestD := -1, []int(nil), math.Inf(1)
	for i, n := range nodes {
		if !Fits(n, t) {
			continue
		}
		if gpus, d := gradientTake(n, t, w); d < bestD {
			best, bestGPUs, bestD = i, gpus, d
		}
	}
	return best, bestGPUs
}

// gradientTake returns the GPUs of n for t whose use grows n's
// fragmentation least, and that growth. A GPU-sharing task tries every GPU
// it fits on; others take Take's choice (equivalent whole GPUs).
func gradientTake(n Node, t Task, w []Shape) ([]int, float64) {
	before := NodeFrag(n, w)
	after := Node{CPU: n.CPU - t.CPU, Mem: n.Mem - t.Mem, GPU: append([]int32(nil), n.GPU...)}
	if t.GPUs == 1 && t.Milli < 1000 {
		best, bestD := -1, math.Inf(1)
		for i, g := range n.GPU {
			if g < t.Milli {
				continue
			}
			after.GPU[i] -= t.Milli
			if d := NodeFrag(after, w) - before; d < bestD {
				best, bestD = i, d
			}
			after.GPU[i] += t.Milli
		}
		return []int{best}, bestD
	}
	gpus, _ := Take(n, t)
	for _, g := range gpus {
		after.GPU[g] -= t.Milli
	}
	return gpus, NodeFrag(after, w) - before
}

// Score rates placing t on n under policy p, lower being better, for a
// caller that walks the fitting nodes itself (ties: take the lowest
// numbered). FirstFit scores every node 0; BestFit the free GPU left, then
// the free CPU left; FragGradient the growth of n's fragmentation against
// w (for a GPU-sharing task on its best GPU). t must fit n. Cost O(G) for
// first- and best-fit, O(G²·W) for FragGradient.
func Score(p Policy, n Node, t Task, w []Shape) float64 {
	switch p {
	case BestFit:
		g := FreeGPU(n) - int64(t.GPUs)*int64(t.Milli)
		c := min(max(n.CPU-t.CPU, 0), 1<<24-1)
		return float64(g)*(1<<24) + float64(c)
	case FragGradient:
		_, d := gradientTake(n, t, w)
		return d
	}
	return 0
}

// GradientGPUs returns the GPUs of n that FragGradient gives t: for a
// GPU-sharing task the GPU whose use grows n's fragmentation against w
// least (the lowest-numbered on a tie), which is the GPU Score assumed;
// for other tasks Take's choice. nil when t does not fit. Cost O(G²·W).
func GradientGPUs(n Node, t Task, w []Shape) []int {
	if !Fits(n, t) {
		return nil
	}
	gpus, _ := gradientTake(n, t, w)
	return gpus
}
