package cluster

import (
	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"
)

// NodeFree is what is still free on one node: CPU, memory and, per GPU, the
// thousandths of that GPU not yet shared out.
type NodeFree struct {
	CPU, Mem int64
	GPU      []int32 // free milli per GPU, 0..1000
}

// Fits reports whether one task of j Fits into f.
// A task asking for g GPUs at share m needs g distinct GPUs with at least m
// thousandths free each (GPU-sharing tasks have g = 1, m < 1000). Cost O(GPUs).
func (f *NodeFree) Fits(j *trace.Job) bool {
	if j.CPU > f.CPU || j.Mem > f.Mem {
		return false
	}
	if j.GPUs == 0 {
		return true
	}
	n := int32(0)
	for _, g := range f.GPU {
		if g >= j.GPUMilli {
			n++
			if n == j.GPUs {
				return true
			}
		}
	}
	return false
}

// Take subtracts one task of j from f, choosing GPUs deterministically, and
// appends the chosen GPU indices to into. Sharing tasks go to the fullest GPU
// that still fits them (best fit, to keep whole GPUs free); whole-GPU tasks to
// the lowest-numbered free GPUs. The caller has checked fits.
func (f *NodeFree) Take(j *trace.Job, into []uint8) []uint8 {
	f.CPU -= j.CPU
	f.Mem -= j.Mem
	if j.GPUs == 0 {
		return into
	}
	if j.GPUs == 1 {
		best := -1
		for i, g := range f.GPU {
			if g >= j.GPUMilli && (best < 0 || g < f.GPU[best]) {
				best = i
			}
		}
		f.GPU[best] -= j.GPUMilli
		return append(into, uint8(best))
	}
	need := j.GPUs
	for i, g := range f.GPU {
		if need == 0 {
			break
		}
		if g >= j.GPUMilli {
			f.GPU[i] -= j.GPUMilli
			into = append(into, uint8(i))
			need--
		}
	}
	return into
}

// TakeExact subtracts one task of j from f on exactly the given GPUs (to undo a give).
func (f *NodeFree) TakeExact(j *trace.Job, gpus []uint8) {
	f.CPU -= j.CPU
	f.Mem -= j.Mem
	for _, g := range gpus {
		f.GPU[g] -= j.GPUMilli
	}
}

// Give returns one task of j, holding the given GPUs, to f.
func (f *NodeFree) Give(j *trace.Job, gpus []uint8) {
	f.CPU += j.CPU
	f.Mem += j.Mem
	for _, g := range gpus {
		f.GPU[g] += j.GPUMilli
	}
}

// CopyFrom makes f an exact copy of o, reusing f's GPU slice.
func (f *NodeFree) CopyFrom(o *NodeFree) {
	f.CPU, f.Mem = o.CPU, o.Mem
	f.GPU = append(f.GPU[:0], o.GPU...)
}

// summary returns node f's leaf in the State's trees (a Vec,
// compared component by component): its free CPU and memory, its fully
// free GPUs and the largest free share of one of them. A maximum of
// summaries bounds what a range of nodes can hold: a task that fits a
// node fits its summary. A node's free Resources vector (the reference
// model's leaf) could not say that half a GPU free on each of two devices
// does not hold a task asking for a whole one.
func (f *NodeFree) summary() Vec {
	s := Vec{MilliCPU: f.CPU, Memory: f.Mem}
	for _, g := range f.GPU {
		if g == 1000 {
			s.GPU++
		}
		s.GPUMilli = max(s.GPUMilli, int64(g))
	}
	return s
}

// Demand returns what one task of j asks of a summary: its CPU and
// memory, and either its whole GPUs (fully free ones) or its share of one
// GPU (the largest free share). Demand(j).Fits(summary) is false only
// when one task of j fits no node the summary covers.
func Demand(j *trace.Job) Vec {
	d := Vec{MilliCPU: j.CPU, Memory: j.Mem}
	switch {
	case j.GPUs == 0:
	case j.GPUMilli >= 1000:
		d.GPU = int64(j.GPUs)
	default:
		d.GPUMilli = int64(j.GPUMilli)
	}
	return d
}

// TaskRef names one running task: a job and the index of its task.
type TaskRef struct {
	Job  int32
	Task int32
}

// taskKey is what decides whether one task of j fits a node: the key of
// the State's FitMemory.
func taskKey(j *trace.Job) Vec {
	return Vec{MilliCPU: j.CPU, Memory: j.Mem, GPU: int64(j.GPUs), GPUMilli: int64(j.GPUMilli)}
}

// use is what the running tasks of one class hold on one node.
type use struct {
	cpu, mem int64
	gpu      []int32 // milli per GPU
}

// State is the simulated State: nodes, what is free on each, and which
// tasks run where. Segment trees over the nodes (Index)
// keep placement and the preemption search cheap on clusters of thousands
// of nodes: fit finds the first node a task fits in O(log nodes)
// typically (O(nodes) at worst, when many nodes pass the summary test but
// fail the exact one, or when no node holds a task while the summaries
// do: FitMemory then makes asking again cost only the nodes
// freed since), and freeable[c] bounds, per node, what would be free if
// every task of class c or lower were evicted.
type State struct {
	Nodes   []trace.Node
	Free    []NodeFree
	GPUCap  int64       // total GPUs in thousandths
	Running [][]TaskRef // tasks running on each node
	used    [][trace.NumClasses]use
	// masked nodes are reserved (head-of-line reservation): hidden from
	// FindFit (package sim places around them).
	masked []bool
	// fit and freeable are the trees; a change marks its node stale
	// (stale[n] = 1 + the class bound of the trees to refresh) and the
	// next query refreshes the stale nodes (refresh): a requeue search
	// evicts and rolls back many tasks between two fit tests, often on
	// the same nodes.
	fit      Index
	freeable [trace.NumClasses]Index
	stale    []uint8
	staleN   []int32
	fits     *FitMemory // tasks (taskKey) that fit no unmasked node
	Scratch  NodeFree
	sum      NodeFree // freeableSummary's scratch
	// Version counts changes of the free resources, nodeVer per node.
	Version uint64
	NodeVer []uint64
}

// New returns the empty cluster of the given nodes: everything free, no
// task running. O(nodes + GPUs).
func New(nodes []trace.Node) *State {
	c := &State{Nodes: nodes, Free: make([]NodeFree, len(nodes)), Running: make([][]TaskRef, len(nodes)),
		masked: make([]bool, len(nodes)), stale: make([]uint8, len(nodes)), used: make([][trace.NumClasses]use, len(nodes)), NodeVer: make([]uint64, len(nodes))}
	for i, n := range nodes {
		c.Free[i] = NodeFree{CPU: n.CPU, Mem: n.Mem, GPU: make([]int32, n.GPUs)}
		for g := range c.Free[i].GPU {
			c.Free[i].GPU[g] = 1000
		}
		for k := range c.used[i] {
			c.used[i][k].gpu = make([]int32, n.GPUs)
		}
		c.GPUCap += int64(n.GPUs) * 1000
	}
	c.fit = NewIndex(len(nodes), func(i int) Vec { return c.Free[i].summary() })
	for k := range c.freeable {
		c.freeable[k] = NewIndex(len(nodes), func(i int) Vec { return c.freeableSummary(i, trace.Class(k)) })
	}
	c.fits = NewFitMemory(len(nodes))
	return c
}

// freeableSummary is the summary of node n with every task of class <= k gone.
func (c *State) freeableSummary(n int, k trace.Class) Vec {
	c.sum.CopyFrom(&c.Free[n])
	for cl := trace.Class(0); cl <= k; cl++ {
		u := &c.used[n][cl]
		c.sum.CPU += u.cpu
		c.sum.Mem += u.mem
		for g, m := range u.gpu {
			c.sum.GPU[g] += m
		}
	}
	return c.sum.summary()
}

// update records a change of node n's free resources (a task of class cl
// taken or given) or of its mask: the versions change now, the trees at
// the next query (refresh).
func (c *State) update(n int, cl trace.Class) {
	c.Version++
	c.NodeVer[n]++
	// What a task of class cl takes from the free resources it adds to
	// its class's use: only the freeable trees below cl see a change.
	b := uint8(min(cl, trace.NumClasses)) + 1
	if c.stale[n] == 0 {
		c.staleN = append(c.staleN, int32(n))
	}
	c.stale[n] = max(c.stale[n], b)
}

// refresh brings the stale nodes' leaves up to date in the trees.
func (c *State) refresh() {
	for _, n := range c.staleN {
		if c.masked[n] {
			c.fit.Set(int(n), noRoom)
		} else {
			c.fit.Set(int(n), c.Free[n].summary())
		}
		for k := trace.Class(0); k+1 < trace.Class(c.stale[n]); k++ {
			c.freeable[k].Set(int(n), c.freeableSummary(int(n), k))
		}
		c.stale[n] = 0
	}
	c.staleN = c.staleN[:0]
}

// FreeableNext returns the first node at or after from where a task of
// demand d would fit with every task of class <= k evicted, or -1: the
// freeable tree's Index.Next.
func (c *State) FreeableNext(k trace.Class, from int, d Vec) int {
	c.refresh()
	return c.freeable[k].Next(from, d)
}

// account adds (sign +1) or removes (-1) one task of j on gpus to node n's
// use by j's class.
func (c *State) account(n int, j *trace.Job, gpus []uint8, sign int64) {
	u := &c.used[n][j.Class]
	u.cpu += sign * j.CPU
	u.mem += sign * j.Mem
	for _, g := range gpus {
		u.gpu[g] += int32(sign) * j.GPUMilli
	}
}

// Take places one task of j on node n (the caller checked it fits) and
// returns the GPUs it took, appended to into.
func (c *State) Take(n int, j *trace.Job, into []uint8) []uint8 {
	k := len(into)
	into = c.Free[n].Take(j, into)
	c.account(n, j, into[k:], 1)
	c.update(n, j.Class)
	return into
}

// TakeExact places one task of j on node n on exactly the given GPUs.
func (c *State) TakeExact(n int, j *trace.Job, gpus []uint8) {
	c.Free[n].TakeExact(j, gpus)
	c.account(n, j, gpus, 1)
	c.update(n, j.Class)
}

// Give frees one task of j holding gpus on node n.
func (c *State) Give(n int, j *trace.Job, gpus []uint8) {
	c.Free[n].Give(j, gpus)
	c.account(n, j, gpus, -1)
	c.update(n, j.Class)
	c.fits.Grew(int32(n))
}

// SetMask hides node n from findFit (or shows it again).
func (c *State) SetMask(n int, on bool) {
	if c.masked[n] != on {
		c.masked[n] = on
		c.update(n, trace.NumClasses)
		if !on {
			c.fits.Grew(int32(n))
		}
	}
}

// EmptyFits reports whether one task of j fits on node n when the node is empty.
func (c *State) EmptyFits(n int, j *trace.Job) bool {
	node := &c.Nodes[n]
	return j.CPU <= node.CPU && j.Mem <= node.Mem && j.GPUs <= node.GPUs
}

// FindFit returns the first unmasked node (lowest index) one task of j
// fits on now, or -1. A task that fitted no node before costs only the
// nodes freed or unmasked since (FitMemory).
func (c *State) FindFit(j *trace.Job) int {
	t := taskKey(j)
	if since, ok := c.fits.Recall(t); ok {
		best := int32(-1)
		for _, n := range since {
			if (best < 0 || n < best) && c.fitsNode(int(n), j) {
				best = n
			}
		}
		if best < 0 {
			c.fits.Remember(t)
		}
		return int(best)
	}
	n := c.NextFit(0, j)
	if n < 0 {
		c.fits.Remember(t)
	}
	return n
}

// NextFit returns the first unmasked node at or after from one task of j
// fits on now, or -1. O(log nodes) per node the summaries cannot rule
// out.
func (c *State) NextFit(from int, j *trace.Job) int {
	c.refresh()
	d := Demand(j)
	n := c.fit.Next(from, d)
	for n >= 0 && !c.fitsNode(n, j) {
		n = c.fit.Next(n+1, d)
	}
	return n
}

// fitsNode reports whether one task of j fits on node n, unmasked.
func (c *State) fitsNode(n int, j *trace.Job) bool {
	return !c.masked[n] && c.Free[n].Fits(j)
}

// Schedulable reports whether j's tasks fit the empty cluster: each task
// on some node, and all of them together (tasks of one job may share a node).
func (c *State) Schedulable(j *trace.Job) bool {
	need := int64(j.Tasks)
	for n := range c.Nodes {
		if !c.EmptyFits(n, j) {
			continue
		}
		node := &c.Nodes[n]
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
