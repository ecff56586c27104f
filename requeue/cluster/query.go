package cluster

import (
	"fmt"
	"maps"
	"slices"
)

// has reports whether a job is registered. O(1).
func (c *Model) has(id string) bool {
	_, ok := c.jobIndex[id]
	return ok
}

// running reports whether a registered job has at least one task placed.
// O(1).
func (c *Model) running(id string) bool {
	ji, ok := c.jobIndex[id]
	return ok && c.jobs[ji].placed > 0
}

// placement returns the node of each of a job's tasks ("" for a pending
// task), or nil for an unknown job. O(tasks); allocates the result.
func (c *Model) placement(id string) []string {
	ji, ok := c.jobIndex[id]
	if !ok {
		return nil
	}
	out := make([]string, len(c.jobs[ji].on))
	for t, n := range c.jobs[ji].on {
		if n >= 0 {
			out[t] = c.nodes[n].name
		}
	}
	return out
}

// nodeFree returns a node's free resources and whether the node exists. O(1).
func (c *Model) nodeFree(node string) (Resources, bool) {
	n, ok := c.nodeIndex[node]
	if !ok {
		return Resources{}, false
	}
	return c.nodes[n].free, true
}

// jobIDs returns the registered job IDs, sorted. O(jobs · log jobs); allocates.
func (c *Model) jobIDs() []string {
	return slices.Sorted(maps.Keys(c.jobIndex))
}

// Clone returns an independent deep copy, without c's memory of failed
// requests. O(nodes + jobs + tasks); a handful of allocations.
func (c *Model) Clone() *Model {
	d := &Model{
		nodes:     slices.Clone(c.nodes),
		nodeIndex: maps.Clone(c.nodeIndex),
		jobs:      make([]clusterJob, len(c.jobs)),
		// O(jobs): the index is rebuilt whenever the job storage shrinks,
		// so it never holds room for more than a few times the jobs.
		jobIndex:    maps.Clone(c.jobIndex),
		free:        c.free,
		capMax:      c.capMax,
		capTotal:    c.capTotal,
		serials:     c.serials,
		index:       c.index.Clone(),
		fitCacheOff: c.fitCacheOff,
	}
	tasks := 0
	for i := range c.jobs {
		tasks += len(c.jobs[i].on)
	}
	on := make([]int32, tasks) // every job's placement, in one array
	for i, job := range c.jobs {
		n := copy(on, job.on)
		job.on, on = on[:n:n], on[n:]
		d.jobs[i] = job
	}
	return d
}

// Snapshot is a comparable picture of a Model's observable state, for
// tests.
type Snapshot struct {
	// Free maps each node name to its free resources.
	Free map[string]Resources
	// Jobs maps each registered job to the node of each of its tasks.
	Jobs map[string][]string
}

// Snapshot returns the cluster's observable state. O(nodes + jobs · tasks);
// allocates.
func (c *Model) Snapshot() Snapshot {
	s := Snapshot{
		Free: make(map[string]Resources, len(c.nodes)),
		Jobs: make(map[string][]string, len(c.jobIndex)),
	}
	for _, n := range c.nodes {
		s.Free[n.name] = n.free
	}
	for id := range c.jobIndex {
		s.Jobs[id] = c.placement(id)
	}
	return s
}

// check verifies the internal invariants (free totals, the segment tree,
// the job index, the memory of failed fits) and returns the first broken,
// or nil. O(nodes + tasks). The requeue tests reach it through package
// requeue/internal/clustercheck.
func (c *Model) check() error {
	free := make([]Resources, len(c.nodes))
	var total Resources
	for i, n := range c.nodes {
		free[i] = n.capacity
	}
	for ji, j := range c.jobs {
		if ix, ok := c.jobIndex[j.id]; !ok || ix != int32(ji) {
			return fmt.Errorf("job %q at %d indexed as %d (%v)", j.id, ji, ix, ok)
		}
		placed := 0
		for t, n := range j.on {
			if n >= 0 {
				placed++
				free[n] = free[n].sub(j.tasks[t])
			}
		}
		if placed != j.placed {
			return fmt.Errorf("job %q counts %d placed, has %d", j.id, j.placed, placed)
		}
		if placed != 0 && placed < int(j.min) {
			return fmt.Errorf("job %q runs %d tasks, below its minimum %d", j.id, placed, j.min)
		}
	}
	for i, n := range c.nodes {
		if n.free != free[i] {
			return fmt.Errorf("node %q free %v, want %v", n.name, n.free, free[i])
		}
		if n.free.negative() {
			return fmt.Errorf("node %q overcommitted: free %v", n.name, n.free)
		}
		if c.index.Leaf(i) != n.free {
			return fmt.Errorf("node %q tree leaf %v, free %v", n.name, c.index.Leaf(i), n.free)
		}
		total = total.add(n.free)
	}
	if total != c.free {
		return fmt.Errorf("total free %v, want %v", c.free, total)
	}
	if err := c.index.check(); err != nil {
		return err
	}
	if len(c.jobIndex) != len(c.jobs) {
		return fmt.Errorf("%d indexed jobs, %d slots", len(c.jobIndex), len(c.jobs))
	}
	if cap(c.jobs) > max(clusterMinSlots, 4*len(c.jobs)) {
		return fmt.Errorf("%d jobs in storage for %d", len(c.jobs), cap(c.jobs))
	}
	return c.checkFitCache()
}
