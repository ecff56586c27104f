package frag_test

import (
	"fmt"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/frag"
)

func ExampleStranded() {
	nodes := []frag.Node{
		{CPU: 8000, Mem: 1 << 16, GPU: []int32{1000, 300}}, // the 300 fits no waiting task
		{CPU: 0, Mem: 1 << 16, GPU: []int32{1000}},         // no CPU left: the whole GPU is stranded
	}
	waiting := []frag.Task{{CPU: 1000, Mem: 1, GPUs: 1, Milli: 500}}
	s, free := frag.Stranded(nodes, waiting)
	fmt.Printf("%d of %d thousandths stranded (%.0f%%)\n", s, free, 100*float64(s)/float64(free))
	// Output: 1300 of 2300 thousandths stranded (57%)
}
