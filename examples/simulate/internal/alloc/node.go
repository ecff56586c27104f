package alloc

import (
	"slices"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"
)

// node is one machine's free capacity during a run.
type node struct {
	cpu, mem int64
	gpu      []int32 // free thousandths per GPU
	model    string
	// kinds counts the GPU pods placed here by kind (kindOf).
	kinds map[int32]int32
	// version grows with every placement, invalidating cached scores.
	version uint32
}

// pod is one request as a run sees it, with the index of its scoring
// shape (CPU, GPUs, share, models: memory does not change a score).
type pod struct {
	cpu, mem    int64
	gpus, milli int32
	models      []string
	shape       int32
}

// newNodes returns the nodes of list, all free.
func newNodes(list []trace.Node) []node {
	out := make([]node, len(list))
	for i, n := range list {
		g := make([]int32, n.GPUs)
		for k := range g {
			g[k] = 1000
		}
		out[i] = node{cpu: n.CPU, mem: n.Mem, gpu: g, model: n.Model, kinds: map[int32]int32{}, version: 1}
	}
	return out
}

// accepts reports whether a pod limited to models may use a GPU of model
// m (no limit: any).
func accepts(models []string, m string) bool {
	return len(models) == 0 || slices.Contains(models, m)
}

// share reports whether p shares one GPU with others.
func (p *pod) share() bool { return p.gpus == 1 && p.milli < 1000 }

// totalMilli is p's GPU demand in thousandths of a GPU.
func (p *pod) totalMilli() int64 { return int64(p.gpus) * int64(p.milli) }

// kindOf is p's kind for GPU clustering: 0 for a GPU-sharing pod, else
// its number of whole GPUs.
func kindOf(p *pod) int32 {
	if p.share() {
		return 0
	}
	return p.gpus
}

// gpusFit reports whether gpu holds k GPUs with at least milli free each.
func gpusFit(gpu []int32, k, milli int32) bool {
	n := int32(0)
	for _, g := range gpu {
		if g >= milli {
			if n++; n >= k {
				return true
			}
		}
	}
	return k <= 0
}

// fits reports whether p fits n: CPU, memory and, for a GPU pod, a model
// it accepts and p.gpus GPUs with its share free.
func fits(n *node, p *pod) bool {
	if p.cpu > n.cpu || p.mem > n.mem {
		return false
	}
	if p.gpus == 0 {
		return true
	}
	return accepts(p.models, n.model) && gpusFit(n.gpu, p.gpus, p.milli)
}

// freeMilli is n's free GPU capacity in thousandths.
func freeMilli(gpu []int32) int64 {
	var s int64
	for _, g := range gpu {
		s += int64(g)
	}
	return s
}

// place takes p from n on the GPUs given.
func (n *node) place(p *pod, gpus []int) {
	n.cpu -= p.cpu
	n.mem -= p.mem
	for _, g := range gpus {
		n.gpu[g] -= p.milli
	}
	if p.gpus > 0 {
		n.kinds[kindOf(p)]++
	}
	n.version++
}
