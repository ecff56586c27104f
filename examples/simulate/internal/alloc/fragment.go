package alloc

import (
	"cmp"
	"slices"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"
)

// Shape is one pod shape of the target workload with its popularity
// (the weights of a workload sum to 1).
type Shape struct {
	CPU         int64
	GPUs, Milli int32
	Models      []string
	Weight      float64
}

// typicalCover is the share of the pods the target workload's shapes
// cover (the paper's 95%).
const typicalCover = 0.95

// TargetWorkload returns the target workload of the fragmentation
// measure: the most popular shapes of pods (CPU, GPUs, share, models;
// CPU-only pods included) until they cover 95% of the pods, their
// weights renormalized to sum to 1. Ties in popularity go to the larger
// shape (CPU, then share, then GPUs, then models). Cost O(n log n).
func TargetWorkload(pods []trace.Request) []Shape {
	count := map[shapeKey]int{}
	models := map[shapeKey][]string{}
	for _, q := range pods {
		k := keyOf(q)
		count[k]++
		models[k] = q.Models
	}
	keys := make([]shapeKey, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b shapeKey) int {
		return cmp.Or(cmp.Compare(count[b], count[a]), cmp.Compare(b.cpu, a.cpu), cmp.Compare(b.milli, a.milli),
			cmp.Compare(b.gpus, a.gpus), cmp.Compare(b.models, a.models))
	})
	var out []Shape
	covered := 0
	for _, k := range keys {
		if float64(covered) >= typicalCover*float64(len(pods)) {
			break
		}
		covered += count[k]
		out = append(out, Shape{CPU: k.cpu, GPUs: k.gpus, Milli: k.milli, Models: models[k], Weight: float64(count[k])})
	}
	for i := range out {
		out[i].Weight /= float64(covered)
	}
	return out
}

// Fragmentation returns the paper's fragmentation of one node, in
// thousandths of a GPU, against the target workload w: for each shape,
// the node's free GPU capacity that shape cannot use (all of it when the
// shape asks for no GPU, lacks CPU here, may not use this GPU model or
// finds too few GPUs with its share free; otherwise the free share of
// each GPU holding less than the shape's share), weighted by popularity.
// Memory is not part of the measure. Cost O(W·G).
func Fragmentation(cpu int64, gpu []int32, model string, w []Shape) float64 {
	free := float64(freeMilli(gpu))
	var f float64
	for i := range w {
		s := &w[i]
		if s.GPUs == 0 || cpu < s.CPU || !accepts(s.Models, model) || !gpusFit(gpu, s.GPUs, s.Milli) {
			f += s.Weight * free
			continue
		}
		var part int64
		for _, g := range gpu {
			if g < s.Milli {
				part += int64(g)
			}
		}
		f += s.Weight * float64(part)
	}
	return f
}
