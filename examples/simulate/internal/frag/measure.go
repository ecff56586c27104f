package frag

import "math"

// Shape is one task shape of a target workload with its popularity: the
// share of tasks (or any non-negative weight; weights are normalized).
type Shape struct {
	Task   Task
	Weight float64
}

// TaskFrag returns the free GPU capacity of n (thousandths) that task
// shape t cannot use: all of it when t does not fit on n or asks for no
// GPU, otherwise the free share of every GPU holding less than t.Milli.
// Cost O(G).
func TaskFrag(n Node, t Task) int64 {
	if t.GPUs == 0 || !Fits(n, t) {
		return FreeGPU(n)
	}
	var s int64
	for _, g := range n.GPU {
		if g < t.Milli {
			s += int64(g)
		}
	}
	return s
}

// NodeFrag returns n's fragmentation measured against the workload w: the
// weight-averaged TaskFrag over w's shapes, in thousandths of a GPU. With
// no shapes (or zero total weight) it is 0. Cost O(W·G).
func NodeFrag(n Node, w []Shape) float64 {
	var sum, tot float64
	for _, s := range w {
		if s.Weight <= 0 {
			continue
		}
		sum += s.Weight * float64(TaskFrag(n, s.Task))
		tot += s.Weight
	}
	if tot == 0 {
		return 0
	}
	return sum / tot
}

// ClusterFrag returns the cluster's fragmentation against w (the sum of
// NodeFrag) and its free GPU capacity, both in thousandths of a GPU; their
// ratio is the fragmentation rate. It sums weight × TaskFrag over nodes
// and shapes before dividing by the total weight once, so with whole-number
// weights (task counts) the sum is exact and does not depend on which node
// holds what. Cost O(N·W·G).
func ClusterFrag(nodes []Node, w []Shape) (frag float64, free int64) {
	var sum, tot float64
	for _, s := range w {
		if s.Weight > 0 {
			tot += s.Weight
		}
	}
	for _, n := range nodes {
		free += FreeGPU(n)
		for _, s := range w {
			if s.Weight > 0 {
				sum += s.Weight * float64(TaskFrag(n, s.Task))
			}
		}
	}
	if tot == 0 {
		return 0, free
	}
	return sum / tot, free
}

// Stranded returns the free GPU capacity no waiting task can use and the
// total free GPU capacity, in thousandths. A GPU's free share counts as
// usable when some task in waiting that asks for GPUs fits on its node
// and needs at most that share from one GPU. With nothing waiting for GPUs
// nothing is stranded. Pass each distinct shape once: cost O(N·S·G).
func Stranded(nodes []Node, waiting []Task) (stranded, free int64) {
	for _, n := range nodes {
		// The smallest per-GPU share asked by a GPU task that fits here:
		// a GPU is usable exactly when it has at least that much free.
		need := int32(math.MaxInt32)
		for _, t := range waiting {
			if t.GPUs > 0 && t.Milli < need && Fits(n, t) {
				need = t.Milli
			}
		}
		for _, g := range n.GPU {
			free += int64(g)
			if g > 0 && g < need {
				stranded += int64(g)
			}
		}
	}
	if !anyGPUTask(waiting) {
		stranded = 0
	}
	return stranded, free
}

// anyGPUTask reports whether some task asks for GPUs.
func anyGPUTask(ts []Task) bool {
	for _, t := range ts {
		if t.GPUs > 0 {
			return true
		}
	}
	return false
}
