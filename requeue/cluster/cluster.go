package cluster

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/tenurepolicy/tenure/requeue"
)

// maxResource is the largest value New and AddJob
// accept in one component of a node capacity or task request (2^46: 64 TiB
// of memory in bytes). With at most maxNodes nodes, sums of node
// capacities never overflow (2^62 at most); the sum of one job's requests,
// whose task count is not bounded, saturates at math.MaxInt64 instead.
const maxResource = 1 << 46

// maxNodes is the largest number of nodes New accepts.
const maxNodes = 1 << 16

// Node is a node of the reference model: a name and a capacity.
type Node struct {
	// Name identifies the node; unique and not empty.
	Name string
	// Capacity is what the node offers, every component in
	// [0, 2^46] (64 TiB of memory in bytes).
	Capacity Resources
}

// Job describes a job of the reference model: its tasks' requests and its
// gang minimum.
type Job struct {
	// ID names the job, as in the engine's nominations and contenders.
	ID string
	// Tasks holds each task's request, in placement order.
	Tasks []Resources
	// MinTasks is the gang minimum, in [0, len(Tasks)]; 0 means all tasks.
	MinTasks int
}

// Model is tenure's in-memory reference [requeue.Model]: nodes with
// capacities, jobs of tasks with requests, and each task's placement.
//
// Placement: [Model.Place] is a deterministic first fit: each task in order
// goes to the first node, in the order given to [New], whose free resources
// hold its request; the job runs only if at least MinTasks of its tasks
// were placed, else nothing is placed.
//
// Journaling: every mutating method takes an optional *requeue.Journal and
// records allocation-free undo steps (one per task placed or released and
// per job added); with a nil journal the change is simply made. The steps
// refer to internal indices, so they must run in reverse order, as
// Journal.Rollback runs them: while a journal holds steps of a model,
// record every change of it in that journal. Each step checks in O(1) that
// it finds what it recorded and panics naming the job when it does not.
//
// Memory follows the registered jobs, not the jobs ever seen. A Model is
// not safe for concurrent use; queries do not modify it. The zero Model is
// an empty cluster, like New(nil); a nil *Model fails every Evict and
// Place with an error.
type Model struct {
	nodes     []clusterNode
	nodeIndex map[string]int32
	// jobs holds the registered jobs densely, in no meaningful order:
	// removeJob moves the last job into the removed job's slot.
	jobs     []clusterJob
	jobIndex map[string]int32 // job ID -> index in jobs
	free     Resources        // sum of all nodes' free resources
	// capMax is the component-wise largest node capacity and capTotal the
	// sum of the capacities, fixed at New (capacity.go).
	capMax, capTotal Resources
	// serials counts the jobs ever added; a job's serial tells undo steps
	// that a slot still holds the job they recorded.
	serials uint32
	// index holds the nodes' free vectors (fitcache.go); fits is the
	// memory of failed requests, made on the first request that fits no
	// node; fitCacheOff turns it off, for tests and benchmarks.
	index       freeIndex
	fits        *fitMemory
	fitCacheOff bool
	searches    int // tree searches past the root made with the memory on, for tests
}

type clusterNode struct {
	name     string
	capacity Resources
	free     Resources
}

type clusterJob struct {
	id    string
	tasks []Resources // never modified once added: clones share it
	// min is the gang minimum; 32 bits (task indices in undo steps are 32
	// bits too) leave room for serial without growing the struct.
	min    int32
	serial uint32    // from Model.serials: unique among 2^32 consecutive jobs
	need   Resources // component-wise lower bound on what any gang needs (never: no gang fits the nodes)
	on     []int32   // node of each task, -1 when pending
	placed int
}

// clusterMinSlots is the job storage below which the cluster never shrinks
// it.
const clusterMinSlots = 64

var _ requeue.Model = (*Model)(nil)

// New returns a cluster with the given nodes and no jobs. It reports every
// problem at once (errors.Join): an empty or duplicate name, a capacity
// component outside [0, 2^46], more than 2^16 nodes. O(nodes).
func New(nodes []Node) (*Model, error) {
	var errs []error
	if len(nodes) > maxNodes {
		errs = append(errs, fmt.Errorf("cluster: %d nodes, at most %d allowed", len(nodes), maxNodes))
	}
	c := &Model{
		nodeIndex: make(map[string]int32, len(nodes)),
		jobIndex:  make(map[string]int32),
	}
	for i, n := range nodes {
		switch {
		case n.Name == "":
			errs = append(errs, fmt.Errorf("cluster: node %d has an empty name", i))
			continue
		case n.Capacity.negative():
			errs = append(errs, fmt.Errorf("cluster: node %q has a negative capacity %v", n.Name, n.Capacity))
			continue
		case !n.Capacity.fits(Resources{maxResource, maxResource, maxResource}):
			errs = append(errs, fmt.Errorf("cluster: node %q capacity %v exceeds %d per resource", n.Name, n.Capacity, int64(maxResource)))
			continue
		}
		if _, dup := c.nodeIndex[n.Name]; dup {
			errs = append(errs, fmt.Errorf("cluster: duplicate node %q", n.Name))
			continue
		}
		c.nodeIndex[n.Name] = int32(len(c.nodes))
		c.nodes = append(c.nodes, clusterNode{name: n.Name, capacity: n.Capacity, free: n.Capacity})
		c.free = c.free.add(n.Capacity)
		c.capMax = c.capMax.max(n.Capacity)
	}
	c.capTotal = c.free
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	c.index = newFreeIndex(len(c.nodes), func(i int) Resources { return c.nodes[i].free })
	return c, nil
}

// AddJob registers a pending job (no task placed). It returns an error, and
// changes nothing, for an empty or already registered ID, no tasks, a
// negative or too large request, or MinTasks outside [0, len(Tasks)]. The
// tasks are copied. Amortised O(tasks); one undo step.
func (c *Model) AddJob(j *requeue.Journal, job Job) error {
	var errs []error
	if job.ID == "" {
		errs = append(errs, errors.New("cluster: job with an empty ID"))
	} else if _, dup := c.jobIndex[job.ID]; dup {
		errs = append(errs, fmt.Errorf("cluster: duplicate job %q", job.ID))
	}
	if len(job.Tasks) == 0 {
		errs = append(errs, fmt.Errorf("cluster: job %q has no tasks", job.ID))
	}
	for i, t := range job.Tasks {
		if t.negative() || !t.fits(Resources{maxResource, maxResource, maxResource}) {
			errs = append(errs, fmt.Errorf("cluster: job %q task %d requests %v (each component must be in [0, %d])", job.ID, i, t, int64(maxResource)))
		}
	}
	if job.MinTasks < 0 || job.MinTasks > len(job.Tasks) {
		errs = append(errs, fmt.Errorf("cluster: job %q MinTasks %d outside [0, %d]", job.ID, job.MinTasks, len(job.Tasks)))
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if c.jobIndex == nil { // the zero Model
		c.jobIndex = make(map[string]int32)
	}
	minTasks := job.MinTasks
	if minTasks == 0 {
		minTasks = len(job.Tasks)
	}
	cj := clusterJob{
		id:    job.ID,
		tasks: slices.Clone(job.Tasks),
		min:   int32(minTasks),
		on:    make([]int32, len(job.Tasks)),
	}
	for i := range cj.on {
		cj.on[i] = -1
	}
	cj.need = c.capacityNeed(cj.tasks, minTasks)
	c.serials++
	cj.serial = c.serials
	ji := int32(len(c.jobs))
	c.jobIndex[job.ID] = ji
	c.jobs = append(c.jobs, cj)
	c.record(j, ji, 0, opUnadd, 0)
	return nil
}

// gangLowerBound returns, per component, the sum of the n smallest values:
// no set of n tasks needs less. A job's task count is not bounded, so the
// sums saturate at math.MaxInt64 (more than any cluster offers) instead of
// wrapping.
func gangLowerBound(tasks []Resources, n int) Resources {
	sum := func(get func(Resources) int64) int64 {
		v := make([]int64, len(tasks))
		for i, t := range tasks {
			v[i] = get(t)
		}
		if n < len(v) {
			slices.Sort(v)
		}
		var s int64
		for _, x := range v[:n] {
			s = saturatingAdd(s, x)
		}
		return s
	}
	return Resources{
		sum(func(r Resources) int64 { return r.MilliCPU }),
		sum(func(r Resources) int64 { return r.Memory }),
		sum(func(r Resources) int64 { return r.GPU }),
	}
}

// saturatingAdd returns a+b for a, b >= 0, or math.MaxInt64 when the sum
// would overflow.
func saturatingAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// removeJob releases a job's tasks (if any run) and unregisters it, as when
// it finishes; its storage is reused at once. Error for an unknown job.
// O(tasks · log nodes), amortised; with a journal, one allocation for the
// step that can restore the job.
func (c *Model) removeJob(j *requeue.Journal, id string) error {
	ji, ok := c.jobIndex[id]
	if !ok {
		return fmt.Errorf("cluster: unknown job %q", id)
	}
	c.release(j, ji)
	gone := c.jobs[ji]
	c.drop(ji)
	if j != nil {
		// The slot and the job count drop left, in one word: the closure
		// stays in the 128-byte size class.
		at := uint64(uint32(ji))<<32 | uint64(uint32(len(c.jobs)))
		j.Record(func() {
			ji, jobs := int32(at>>32), int(uint32(at))
			if len(c.jobs) != jobs {
				c.unrecorded(fmt.Sprintf("restoring removed job %q finds %d jobs, not the %d its removal left", gone.id, len(c.jobs), jobs))
			}
			if _, dup := c.jobIndex[gone.id]; dup {
				c.unrecorded(fmt.Sprintf("restoring removed job %q finds that ID registered again", gone.id))
			}
			c.restore(ji, gone)
		})
	}
	return nil
}

// drop unregisters the job at ji: the last job moves into its slot, and the
// storage shrinks when it is mostly empty. restore(ji, job) undoes it
// exactly, given the state drop left.
func (c *Model) drop(ji int32) {
	last := int32(len(c.jobs) - 1)
	delete(c.jobIndex, c.jobs[ji].id)
	if ji != last {
		c.jobs[ji] = c.jobs[last]
		c.jobIndex[c.jobs[ji].id] = ji
	}
	c.jobs[last] = clusterJob{} // drop references for the garbage collector
	c.jobs = c.jobs[:last]
	if cap(c.jobs) > clusterMinSlots && 4*len(c.jobs) <= cap(c.jobs) {
		// Reallocate at twice the live count, and rebuild the index (a Go
		// map never shrinks): O(jobs), amortised over the removals that
		// emptied three quarters of the storage. Indices do not change.
		c.jobs = append(make([]clusterJob, 0, 2*len(c.jobs)), c.jobs...)
		c.jobIndex = make(map[string]int32, len(c.jobs))
		for i := range c.jobs {
			c.jobIndex[c.jobs[i].id] = int32(i)
		}
	}
}

// restore registers job at ji again, moving the job that took its slot back
// to the end: the inverse of drop(ji).
func (c *Model) restore(ji int32, job clusterJob) {
	last := int32(len(c.jobs))
	c.jobs = append(c.jobs, clusterJob{})
	if ji != last {
		c.jobs[last] = c.jobs[ji]
		c.jobIndex[c.jobs[last].id] = last
	}
	c.jobs[ji] = job
	c.jobIndex[job.id] = ji
}

// Evict releases every task of a running job, which becomes pending again
// (it stays registered). Error for an unknown job or one that is not
// running. O(tasks · log nodes); one undo step per released task.
func (c *Model) Evict(j *requeue.Journal, id string) error {
	if c == nil {
		return errors.New("cluster: evict: nil cluster")
	}
	ji, ok := c.jobIndex[id]
	if !ok {
		return fmt.Errorf("cluster: evict: unknown job %q", id)
	}
	if c.jobs[ji].placed == 0 {
		return fmt.Errorf("cluster: evict: job %q is not running", id)
	}
	c.release(j, ji)
	return nil
}

// release unplaces every task of the job at ji. Its undo steps run in
// reverse, so the step of the last placed task runs first: it checks that
// the job is pending when the undo starts (opReassignPending).
func (c *Model) release(j *requeue.Journal, ji int32) {
	job := &c.jobs[ji]
	last := len(job.on) - 1
	for last >= 0 && job.on[last] < 0 {
		last--
	}
	for t, n := range job.on {
		if n < 0 {
			continue
		}
		c.unassign(ji, int32(t))
		if j != nil {
			op := uint8(opReassign)
			if t == last {
				op = opReassignPending
			}
			c.record(j, ji, int32(t), op, n)
		}
	}
}

// Place places a pending job by first fit (see [Model]): true if at least
// its gang minimum of tasks now run, false (and nothing changed) if not.
// Error for an unknown job or one that already runs. O(1) when the free
// total rules the gang out; O(tasks · log nodes) typically; a request that
// fits no node of a fragmented cluster costs O(nodes) once, then O(1 +
// nodes freed since). No allocation once the memory of failed requests has
// its working size.
func (c *Model) Place(j *requeue.Journal, id string) (bool, error) {
	if c == nil {
		return false, errors.New("cluster: place: nil cluster")
	}
	ji, ok := c.jobIndex[id]
	if !ok {
		return false, fmt.Errorf("cluster: place: unknown job %q", id)
	}
	job := &c.jobs[ji]
	if job.placed > 0 {
		return false, fmt.Errorf("cluster: place: job %q is already running", id)
	}
	if len(c.nodes) == 0 || !job.need.fits(c.free) {
		return false, nil
	}
	left := len(job.tasks)
	for t, req := range job.tasks {
		if job.placed+left < int(job.min) {
			break
		}
		left--
		n := c.findFit(req)
		if n < 0 {
			continue
		}
		c.assign(ji, int32(t), int32(n))
	}
	if job.placed < int(job.min) {
		for t, n := range job.on {
			if n >= 0 {
				c.unassign(ji, int32(t))
			}
		}
		return false, nil
	}
	c.recordPlaced(j, ji)
	return true, nil
}

// Bind places a job's tasks on the named nodes, one name per task (""
// leaves a task pending), as when the model mirrors a running cluster. All
// or nothing: an error, changing nothing, for an unknown job or node, a
// running job, a count mismatch, fewer tasks than the gang minimum, or
// tasks that do not fit. O(tasks · log nodes).
func (c *Model) Bind(j *requeue.Journal, id string, nodes []string) error {
	ji, ok := c.jobIndex[id]
	if !ok {
		return fmt.Errorf("cluster: bind: unknown job %q", id)
	}
	job := &c.jobs[ji]
	if job.placed > 0 {
		return fmt.Errorf("cluster: bind: job %q is already running", id)
	}
	if len(nodes) != len(job.tasks) {
		return fmt.Errorf("cluster: bind: job %q has %d tasks, got %d nodes", id, len(job.tasks), len(nodes))
	}
	var errs []error
	count := 0
	for t, name := range nodes {
		if name == "" {
			continue
		}
		count++
		n, ok := c.nodeIndex[name]
		if !ok {
			errs = append(errs, fmt.Errorf("cluster: bind: job %q task %d: unknown node %q", id, t, name))
			continue
		}
		if !job.tasks[t].fits(c.nodes[n].free) {
			errs = append(errs, fmt.Errorf("cluster: bind: job %q task %d (%v) does not fit node %q (free %v)", id, t, job.tasks[t], name, c.nodes[n].free))
			continue
		}
		c.assign(ji, int32(t), n)
	}
	if len(errs) == 0 && count < int(job.min) {
		errs = append(errs, fmt.Errorf("cluster: bind: job %q: %d tasks bound, gang minimum is %d", id, count, job.min))
	}
	if len(errs) > 0 {
		for t, n := range job.on {
			if n >= 0 {
				c.unassign(ji, int32(t))
			}
		}
		return errors.Join(errs...)
	}
	c.recordPlaced(j, ji)
	return nil
}

// recordPlaced records the undo steps of a placement of the job at ji: one
// per placed task. They run in reverse, so the step of the first placed
// task runs last: it checks that the job is pending when the undo ends
// (opUnassignAll).
func (c *Model) recordPlaced(j *requeue.Journal, ji int32) {
	if j == nil {
		return
	}
	op := uint8(opUnassignAll)
	for t, n := range c.jobs[ji].on {
		if n >= 0 {
			c.record(j, ji, int32(t), op, n)
			op = opUnassign
		}
	}
}

func (c *Model) assign(ji, t, n int32) {
	job := &c.jobs[ji]
	req := job.tasks[t]
	job.on[t] = n
	job.placed++
	c.nodes[n].free = c.nodes[n].free.sub(req)
	c.free = c.free.sub(req)
	c.update(n)
}

func (c *Model) unassign(ji, t int32) {
	job := &c.jobs[ji]
	n := job.on[t]
	req := job.tasks[t]
	job.on[t] = -1
	job.placed--
	c.nodes[n].free = c.nodes[n].free.add(req)
	c.free = c.free.add(req)
	c.update(n)
	c.grew(n)
}

// Undo operations. A step's a holds the job's slot (high 32 bits) and the
// task (low 32 bits); b holds the job's serial (high 32 bits), the
// operation (bits 24-31) and a node (low 24 bits; nodes are fewer than
// 2^24).
const (
	opUnassign        = iota + 1 // release the task from the node
	opUnassignAll                // the same, and the job must then be pending
	opReassign                   // put the task back on the node
	opReassignPending            // the same; the job must be pending before
	opUnadd                      // drop the job, which must be the last one
)

// record appends the undo step op for task t of the job at ji on node n.
func (c *Model) record(j *requeue.Journal, ji, t int32, op uint8, n int32) {
	j.RecordUndoer((*clusterUndo)(c), int64(ji)<<32|int64(uint32(t)),
		int64(c.jobs[ji].serial)<<32|int64(op)<<24|int64(n))
}

// clusterUndo gives a Model its undo method without exporting it.
type clusterUndo Model

func (u *clusterUndo) Undo(a, b int64) {
	c := (*Model)(u)
	ji, t := int32(a>>32), int32(uint32(a))
	serial, op, n := uint32(uint64(b)>>32), uint8(b>>24), int32(b&0xffffff)
	if ji < 0 || int(ji) >= len(c.jobs) || c.jobs[ji].serial != serial {
		c.undoMismatch(mismatchSlot, ji, t, n, serial)
	}
	job := &c.jobs[ji]
	switch op {
	case opUnassign, opUnassignAll:
		if job.on[t] != n {
			c.undoMismatch(mismatchTask, ji, t, n, serial)
		}
		c.unassign(ji, t)
		if op == opUnassignAll && job.placed != 0 {
			c.undoMismatch(mismatchStillPlaced, ji, t, n, serial)
		}
	case opReassign, opReassignPending:
		if op == opReassignPending && job.placed != 0 {
			c.undoMismatch(mismatchPlaced, ji, t, n, serial)
		}
		if job.on[t] >= 0 {
			c.undoMismatch(mismatchTask, ji, t, -1, serial)
		}
		if !job.tasks[t].fits(c.nodes[n].free) {
			c.undoMismatch(mismatchNoFit, ji, t, n, serial)
		}
		c.assign(ji, t, n)
	case opUnadd:
		if int(ji) != len(c.jobs)-1 {
			c.undoMismatch(mismatchNotLast, ji, t, n, serial)
		}
		if job.placed != 0 {
			c.undoMismatch(mismatchRunning, ji, t, n, serial)
		}
		c.drop(ji)
	}
}

// What an undo step found different from what it recorded.
const (
	mismatchSlot        = iota // the slot does not hold the job
	mismatchTask               // the task is not where the step left it
	mismatchStillPlaced        // tasks still placed after undoing a placement
	mismatchPlaced             // tasks placed before undoing an eviction
	mismatchNoFit              // the task no longer fits its node
	mismatchNotLast            // an added job is no longer the last one
	mismatchRunning            // an added job runs
)

// undoMismatch panics for an undo step of task t of the job with the
// serial, recorded in slot ji with node n (-1: pending), that found the
// cluster different: kind says how. Kept out of Undo, which stays small.
//
//go:noinline
func (c *Model) undoMismatch(kind int, ji, t, n int32, serial uint32) {
	where := func(n int32) string {
		if n < 0 {
			return "pending"
		}
		return fmt.Sprintf("on node %q", c.nodes[n].name)
	}
	if kind == mismatchSlot {
		name := "a job no longer registered"
		for i := range c.jobs {
			if c.jobs[i].serial == serial {
				name = fmt.Sprintf("job %q", c.jobs[i].id)
				break
			}
		}
		holds := "empty"
		if ji >= 0 && int(ji) < len(c.jobs) {
			holds = fmt.Sprintf("holding job %q", c.jobs[ji].id)
		}
		c.unrecorded(fmt.Sprintf("an undo step for %s finds its slot %d %s", name, ji, holds))
	}
	job := &c.jobs[ji]
	switch kind {
	case mismatchTask:
		c.unrecorded(fmt.Sprintf("an undo step for job %q finds task %d %s, not %s", job.id, t, where(job.on[t]), where(n)))
	case mismatchStillPlaced:
		c.unrecorded(fmt.Sprintf("undoing the placement of job %q leaves %d of its tasks placed", job.id, job.placed))
	case mismatchPlaced:
		c.unrecorded(fmt.Sprintf("undoing the eviction of job %q finds %d of its tasks placed", job.id, job.placed))
	case mismatchNoFit:
		c.unrecorded(fmt.Sprintf("undoing the eviction of job %q: task %d (%v) does not fit node %q (free %v)", job.id, t, job.tasks[t], c.nodes[n].name, c.nodes[n].free))
	case mismatchNotLast:
		c.unrecorded(fmt.Sprintf("undoing the addition of job %q finds it in slot %d of %d, not the last", job.id, ji, len(c.jobs)))
	default:
		c.unrecorded(fmt.Sprintf("undoing the addition of job %q finds it running", job.id))
	}
}

// unrecorded panics: an undo step found the cluster changed without the
// journal that holds it.
func (c *Model) unrecorded(what string) {
	panic("cluster: " + what + ": the cluster was changed without the journal that holds this step " +
		"(while a journal holds steps, record every change of the cluster in it)")
}
