package main

// nodeFree is what is still free on one node: CPU, memory and, per GPU, the
// thousandths of that GPU not yet shared out.
type nodeFree struct {
	cpu, mem int64
	gpu      []int32 // free milli per GPU, 0..1000
}

// fits reports whether a job with the given demand fits into f.
// A task asking for g GPUs at share m needs g distinct GPUs with at least m
// thousandths free each (GPU-sharing tasks have g = 1, m < 1000). Cost O(GPUs).
func (f *nodeFree) fits(j *Job) bool {
	if j.CPU > f.cpu || j.Mem > f.mem {
		return false
	}
	if j.GPUs == 0 {
		return true
	}
	n := int32(0)
	for _, g := range f.gpu {
		if g >= j.GPUMilli {
			n++
			if n == j.GPUs {
				return true
			}
		}
	}
	return false
}

// take subtracts j's demand from f, choosing GPUs deterministically, and
// appends the chosen GPU indices to into. Sharing tasks go to the fullest GPU
// that still fits them (best fit, to keep whole GPUs free); whole-GPU tasks to
// the lowest-numbered free GPUs. The caller has checked fits.
func (f *nodeFree) take(j *Job, into []uint8) []uint8 {
	f.cpu -= j.CPU
	f.mem -= j.Mem
	if j.GPUs == 0 {
		return into
	}
	if j.GPUs == 1 {
		best := -1
		for i, g := range f.gpu {
			if g >= j.GPUMilli && (best < 0 || g < f.gpu[best]) {
				best = i
			}
		}
		f.gpu[best] -= j.GPUMilli
		return append(into, uint8(best))
	}
	need := j.GPUs
	for i, g := range f.gpu {
		if need == 0 {
			break
		}
		if g >= j.GPUMilli {
			f.gpu[i] -= j.GPUMilli
			into = append(into, uint8(i))
			need--
		}
	}
	return into
}

// takeExact subtracts j's demand from f on exactly the given GPUs (to undo a give).
func (f *nodeFree) takeExact(j *Job, gpus []uint8) {
	f.cpu -= j.CPU
	f.mem -= j.Mem
	for _, g := range gpus {
		f.gpu[g] -= j.GPUMilli
	}
}

// give returns j's demand on the given GPUs to f.
func (f *nodeFree) give(j *Job, gpus []uint8) {
	f.cpu += j.CPU
	f.mem += j.Mem
	for _, g := range gpus {
		f.gpu[g] += j.GPUMilli
	}
}

// copyFrom makes f an exact copy of o, reusing f's GPU slice.
func (f *nodeFree) copyFrom(o *nodeFree) {
	f.cpu, f.mem = o.cpu, o.mem
	f.gpu = append(f.gpu[:0], o.gpu...)
}

// cluster is the simulated cluster: nodes and what is free on each.
type cluster struct {
	nodes   []Node
	free    []nodeFree
	gpuCap  int64     // total GPUs in thousandths
	running [][]int32 // job IDs running on each node
}

func newCluster(nodes []Node) *cluster {
	c := &cluster{nodes: nodes, free: make([]nodeFree, len(nodes)), running: make([][]int32, len(nodes))}
	for i, n := range nodes {
		c.free[i] = nodeFree{cpu: n.CPU, mem: n.Mem, gpu: make([]int32, n.GPUs)}
		for g := range c.free[i].gpu {
			c.free[i].gpu[g] = 1000
		}
		c.gpuCap += int64(n.GPUs) * 1000
	}
	return c
}

// emptyFits reports whether j fits on node n when the node is empty.
func (c *cluster) emptyFits(n int, j *Job) bool {
	node := &c.nodes[n]
	return j.CPU <= node.CPU && j.Mem <= node.Mem && j.GPUs <= node.GPUs
}

// findFit returns the first node (lowest index) j fits on now, or -1.
// Cost O(nodes × GPUs per node).
func (c *cluster) findFit(j *Job) int {
	for n := range c.free {
		if c.free[n].fits(j) {
			return n
		}
	}
	return -1
}

// schedulable reports whether j fits on some node of the empty cluster.
func (c *cluster) schedulable(j *Job) bool {
	for n := range c.nodes {
		if c.emptyFits(n, j) {
			return true
		}
	}
	return false
}
