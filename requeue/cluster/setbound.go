package cluster

import (
	"cmp"
	"slices"

	"github.com/tenurepolicy/tenure/requeue"
)

var _ requeue.SetFitBounder = (*Model)(nil)

// MayFitAfter implements [requeue.SetFitBounder]: MayFit's tests with
// every victim's tasks released. Every quantity grows with each victim, so
// a false answer holds for every subset. True for an unknown or running
// job, or when a victim is unknown, not running, or job itself. O(t log t
// + job tasks) for victims with t placed tasks; no allocation once the
// scratch space has grown.
func (c *Model) MayFitAfter(victims []string, job string) bool {
	if c == nil {
		return true
	}
	ji, ok := c.jobIndex[job]
	if !ok || c.jobs[ji].placed > 0 {
		return true
	}
	free, largest := c.free, noRoom // noRoom: no node, nothing fits
	if len(c.nodes) > 0 {
		largest = c.largestFree()
	}
	// The victims' tasks as (node, task) pairs, sorted by node.
	tasks := c.tasks[:0]
	for _, victim := range victims {
		vi, ok := c.jobIndex[victim]
		if !ok || vi == ji || c.jobs[vi].placed == 0 {
			c.tasks = tasks[:0]
			return true // Evict will report the error
		}
		for t, n := range c.jobs[vi].on {
			if n >= 0 {
				tasks = append(tasks, taskRef{n, vi, int32(t)})
			}
		}
	}
	slices.SortFunc(tasks, func(a, b taskRef) int { return cmp.Compare(a.node, b.node) })
	var fit, room, node Resources
	for i, tr := range tasks {
		if i == 0 || tr.node != tasks[i-1].node {
			node = c.nodes[tr.node].free
		}
		req := c.jobs[tr.job].tasks[tr.task]
		free, room, node = free.add(req), room.add(req), node.add(req)
		if i == len(tasks)-1 || tasks[i+1].node != tr.node {
			room, fit = room.add(c.nodes[tr.node].free), fit.max(node)
		}
	}
	c.tasks = tasks[:0]
	return c.gangMayFit(&c.jobs[ji], free, largest, fit, room)
}

// taskRef names the task of the job at job placed on node.
type taskRef struct{ node, job, task int32 }
