package cluster_test

import (
	"fmt"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/cluster"
)

// An Index over the free cores and GPUs of five nodes finds the first node
// with room for a request, and the next one after it, without visiting
// the nodes whose ranges rule the request out.
func ExampleIndex() {
	free := []cluster.Vec{{MilliCPU: 8, GPU: 1}, {}, {MilliCPU: 16, GPU: 4}, {MilliCPU: 4, GPU: 2}, {MilliCPU: 64, GPU: 8}}
	x := cluster.NewIndex(len(free), func(i int) cluster.Vec { return free[i] })
	twoGPUs := cluster.Vec{MilliCPU: 4, GPU: 2}
	fmt.Println("first with 2 GPUs:", x.Next(0, twoGPUs), "then:", x.Next(3, twoGPUs))
	x.Set(2, cluster.Vec{MilliCPU: 16}) // node 2's GPUs are taken
	fmt.Println("first with 2 GPUs:", x.Next(0, twoGPUs), "most GPUs free on a node:", x.Root().GPU)
	fmt.Println("first with 9 GPUs:", x.Next(0, cluster.Vec{GPU: 9}))
	// Output:
	// first with 2 GPUs: 2 then: 3
	// first with 2 GPUs: 3 most GPUs free on a node: 8
	// first with 9 GPUs: -1
}

// A FitMemory stands in front of a search: a request that fitted no node
// is answered next time from the nodes freed since.
func ExampleFitMemory() {
	free := []cluster.Vec{{MilliCPU: 8, GPU: 1}, {}, {MilliCPU: 16, GPU: 2}}
	x := cluster.NewIndex(len(free), func(i int) cluster.Vec { return free[i] })
	var m cluster.FitMemory
	firstFit := func(r cluster.Vec) int {
		if since, ok := m.Recall(r); ok {
			fmt.Println("  recalled; nodes freed since:", since)
			best := -1 // the first fit is the lowest of them that holds r
			for _, n := range since {
				if r.Fits(free[n]) && (best < 0 || int(n) < best) {
					best = int(n)
				}
			}
			if best < 0 {
				m.Remember(r) // it fits none: remember it from now on
			}
			return best
		}
		n := x.Next(0, r)
		if n < 0 {
			m.Remember(r)
		}
		return n
	}
	threeGPUs := cluster.Vec{MilliCPU: 1, GPU: 3}
	fmt.Println("3 GPUs:", firstFit(threeGPUs))
	fmt.Println("3 GPUs:", firstFit(threeGPUs))
	free[1] = cluster.Vec{MilliCPU: 8, GPU: 4} // a job leaves node 1
	x.Set(1, free[1])
	m.Grew(1)
	fmt.Println("3 GPUs:", firstFit(threeGPUs))
	// Output:
	// 3 GPUs: -1
	//   recalled; nodes freed since: []
	// 3 GPUs: -1
	//   recalled; nodes freed since: [1]
	// 3 GPUs: 1
}
