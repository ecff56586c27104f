package frag

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// cluster builds n 8-GPU nodes with random partial use, the shape of the
// openb node list at full scale (1,213 nodes).
func cluster(n int) []Node {
	r := rand.New(rand.NewPCG(1, 2))
	out := make([]Node, n)
	for i := range out {
		g := make([]int32, 8)
		for k := range g {
			g[k] = int32(250 * r.IntN(5))
		}
		out[i] = Node{CPU: int64(r.IntN(96000)), Mem: 1 << 20, GPU: g}
	}
	return out
}

var shapes = []Task{{CPU: 4000, Mem: 1, GPUs: 1, Milli: 500}, {CPU: 8000, Mem: 1, GPUs: 1, Milli: 1000},
	{CPU: 16000, Mem: 1, GPUs: 2, Milli: 1000}, {CPU: 32000, Mem: 1, GPUs: 8, Milli: 1000}, {CPU: 2000, Mem: 1, GPUs: 1, Milli: 250}}

// naiveStranded marks usable GPUs per task and node (the test oracle).
func naiveStranded(nodes []Node, waiting []Task) (s int64) {
	for _, n := range nodes {
		used := make([]bool, len(n.GPU))
		for _, t := range waiting {
			if t.GPUs > 0 && Fits(n, t) {
				for i, g := range n.GPU {
					used[i] = used[i] || g >= t.Milli
				}
			}
		}
		for i, g := range n.GPU {
			if !used[i] {
				s += int64(g)
			}
		}
	}
	return s
}

func BenchmarkStranded(b *testing.B) {
	for _, n := range []int{1213, 12130} {
		nodes := cluster(n)
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Stranded(nodes, shapes)
			}
		})
		b.Run(fmt.Sprintf("naive/nodes=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				naiveStranded(nodes, shapes)
			}
		})
	}
}

func BenchmarkChoose(b *testing.B) {
	w := make([]Shape, len(shapes))
	for i, t := range shapes {
		w[i] = Shape{t, 1}
	}
	for _, n := range []int{1213, 12130} {
		nodes := cluster(n)
		for _, p := range []Policy{FirstFit, BestFit, FragGradient} {
			b.Run(fmt.Sprintf("%v/nodes=%d", p, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					Choose(p, nodes, shapes[0], w)
				}
			})
		}
	}
}
