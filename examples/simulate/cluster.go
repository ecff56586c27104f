package main

// nodeFree is what is still free on one node: CPU, memory and, per GPU, the
// thousandths of that GPU not yet shared out.
type nodeFree struct {
	cpu, mem int64
	gpu      []int32 // free milli per GPU, 0..1000
}

// fits reports whether one task of j fits into f.
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

// take subtracts one task of j from f, choosing GPUs deterministically, and
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

// takeExact subtracts one task of j from f on exactly the given GPUs (to undo a give).
func (f *nodeFree) takeExact(j *Job, gpus []uint8) {
	f.cpu -= j.CPU
	f.mem -= j.Mem
	for _, g := range gpus {
		f.gpu[g] -= j.GPUMilli
	}
}

// give returns one task of j, holding the given GPUs, to f.
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

// summary is an upper bound of what a node (or a range of nodes) can hold:
// the most free CPU and memory, the most fully free GPUs and the largest
// free share of one GPU. A task that fits a node fits its summary.
type summary struct {
	cpu, mem       int64
	full, maxMilli int32
}

func (f *nodeFree) summary() summary {
	s := summary{cpu: f.cpu, mem: f.mem}
	for _, g := range f.gpu {
		if g == 1000 {
			s.full++
		}
		s.maxMilli = max(s.maxMilli, g)
	}
	return s
}

// mayFit is the summary test: false means one task of j fits no node the
// summary covers.
func (s *summary) mayFit(j *Job) bool {
	if j.CPU > s.cpu || j.Mem > s.mem {
		return false
	}
	switch {
	case j.GPUs == 0:
		return true
	case j.GPUMilli >= 1000:
		return s.full >= j.GPUs
	default:
		return s.maxMilli >= j.GPUMilli
	}
}

func (s *summary) merge(a, b *summary) {
	*s = summary{cpu: max(a.cpu, b.cpu), mem: max(a.mem, b.mem), full: max(a.full, b.full), maxMilli: max(a.maxMilli, b.maxMilli)}
}

// taskRef names one running task: a job and the index of its task.
type taskRef struct {
	job  int32
	task int32
}

// cluster is the simulated cluster: nodes, what is free on each, and which
// tasks run where. A segment tree over the nodes' summaries finds the first
// node a task fits in O(log nodes) typically (O(nodes) at worst, when many
// nodes pass the summary test but fail the exact one), so placement stays
// cheap on clusters of thousands of nodes.
type cluster struct {
	nodes   []Node
	free    []nodeFree
	gpuCap  int64       // total GPUs in thousandths
	running [][]taskRef // tasks running on each node
	// masked nodes are reserved (head-of-line reservation): hidden from
	// findFit, see sim.fitFor.
	masked []bool
	size   int       // leaves of the tree: a power of two >= len(nodes)
	tree   []summary // tree[1] is the root; leaf i is tree[size+i]
}

func newCluster(nodes []Node) *cluster {
	c := &cluster{nodes: nodes, free: make([]nodeFree, len(nodes)), running: make([][]taskRef, len(nodes)), masked: make([]bool, len(nodes))}
	for i, n := range nodes {
		c.free[i] = nodeFree{cpu: n.CPU, mem: n.Mem, gpu: make([]int32, n.GPUs)}
		for g := range c.free[i].gpu {
			c.free[i].gpu[g] = 1000
		}
		c.gpuCap += int64(n.GPUs) * 1000
	}
	c.size = 1
	for c.size < len(nodes) {
		c.size *= 2
	}
	c.tree = make([]summary, 2*c.size)
	for i := range c.free {
		c.tree[c.size+i] = c.free[i].summary()
	}
	for k := c.size - 1; k >= 1; k-- {
		c.tree[k].merge(&c.tree[2*k], &c.tree[2*k+1])
	}
	return c
}

// update refreshes node n's leaf and its ancestors after a change of its
// free resources or of its mask. O(GPUs + log nodes).
func (c *cluster) update(n int) {
	k := c.size + n
	if c.masked[n] {
		c.tree[k] = summary{}
	} else {
		c.tree[k] = c.free[n].summary()
	}
	for k /= 2; k >= 1; k /= 2 {
		c.tree[k].merge(&c.tree[2*k], &c.tree[2*k+1])
	}
}

// take places one task of j on node n (the caller checked it fits) and
// returns the GPUs it took, appended to into.
func (c *cluster) take(n int, j *Job, into []uint8) []uint8 {
	into = c.free[n].take(j, into)
	c.update(n)
	return into
}

// takeExact places one task of j on node n on exactly the given GPUs.
func (c *cluster) takeExact(n int, j *Job, gpus []uint8) {
	c.free[n].takeExact(j, gpus)
	c.update(n)
}

// give frees one task of j holding gpus on node n.
func (c *cluster) give(n int, j *Job, gpus []uint8) {
	c.free[n].give(j, gpus)
	c.update(n)
}

// setMask hides node n from findFit (or shows it again).
func (c *cluster) setMask(n int, on bool) {
	if c.masked[n] != on {
		c.masked[n] = on
		c.update(n)
	}
}

// emptyFits reports whether one task of j fits on node n when the node is empty.
func (c *cluster) emptyFits(n int, j *Job) bool {
	node := &c.nodes[n]
	return j.CPU <= node.CPU && j.Mem <= node.Mem && j.GPUs <= node.GPUs
}

// findFit returns the first unmasked node (lowest index) one task of j
// fits on now, or -1.
func (c *cluster) findFit(j *Job) int {
	if len(c.nodes) == 0 {
		return -1
	}
	return c.search(1, 0, c.size, j)
}

func (c *cluster) search(k, lo, hi int, j *Job) int {
	if lo >= len(c.nodes) || !c.tree[k].mayFit(j) {
		return -1
	}
	if hi-lo == 1 {
		if !c.masked[lo] && c.free[lo].fits(j) {
			return lo
		}
		return -1
	}
	mid := (lo + hi) / 2
	if r := c.search(2*k, lo, mid, j); r >= 0 {
		return r
	}
	return c.search(2*k+1, mid, hi, j)
}

// schedulable reports whether j's tasks fit the empty cluster: each task
// on some node, and all of them together (tasks of one job may share a node).
func (c *cluster) schedulable(j *Job) bool {
	need := int64(j.Tasks)
	for n := range c.nodes {
		if !c.emptyFits(n, j) {
			continue
		}
		node := &c.nodes[n]
		per := int64(1 << 40)
		if j.CPU > 0 {
			per = min(per, node.CPU/j.CPU)
		}
		if j.Mem > 0 {
			per = min(per, node.Mem/j.Mem)
		}
		if j.GPUs > 0 {
			perGPU := int64(1)
			if j.GPUMilli > 0 {
				perGPU = 1000 / int64(j.GPUMilli)
			}
			per = min(per, int64(node.GPUs)*perGPU/int64(j.GPUs))
		}
		need -= per
		if need <= 0 {
			return true
		}
	}
	return false
}
