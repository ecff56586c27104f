package frag

// Node is the free capacity of one node: CPU (milli-cores), memory (MiB)
// and, per GPU slot, the thousandths of that GPU not yet shared out
// (0..1000).
type Node struct {
	CPU, Mem int64
	GPU      []int32
}

// Task is one request: CPU and memory, and GPUs distinct GPUs with at
// least Milli thousandths free on each (a GPU-sharing task has GPUs 1 and
// Milli < 1000; a whole-GPU task Milli 1000). GPUs 0 asks for no GPU.
type Task struct {
	CPU, Mem int64
	GPUs     int32
	Milli    int32
}

// Fits reports whether t fits on n. Cost O(G).
func Fits(n Node, t Task) bool {
	if t.CPU > n.CPU || t.Mem > n.Mem {
		return false
	}
	k := int32(0)
	for _, g := range n.GPU {
		if g >= t.Milli {
			k++
		}
	}
	return k >= t.GPUs
}

// FreeGPU returns n's free GPU capacity in thousandths of a GPU. Cost O(G).
func FreeGPU(n Node) int64 {
	var s int64
	for _, g := range n.GPU {
		s += int64(g)
	}
	return s
}

// Take returns the GPUs a task t placed on n would use, as indices into
// n.GPU (nil for t.GPUs 0), and false when t does not fit. A GPU-sharing
// task takes the fullest GPU that still fits it (keeping whole GPUs free);
// a whole-GPU task the lowest-numbered GPUs that fit. Cost O(G).
func Take(n Node, t Task) ([]int, bool) {
	if !Fits(n, t) {
		return nil, false
	}
	if t.GPUs == 0 {
		return nil, true
	}
	if t.GPUs == 1 && t.Milli < 1000 {
		best := -1
		for i, g := range n.GPU {
			if g >= t.Milli && (best < 0 || g < n.GPU[best]) {
				best = i
			}
		}
		return []int{best}, true
	}
	out := make([]int, 0, t.GPUs)
	for i, g := range n.GPU {
		if g >= t.Milli && int32(len(out)) < t.GPUs {
			out = append(out, i)
		}
	}
	return out, true
}
