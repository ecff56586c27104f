package cluster

import "math"

// never is the lower bound of a job whose gang fits the nodes in no state:
// it fits no free vector, so Place and MayFit rule the job out at their
// first test.
var never = Resources{math.MaxInt64, math.MaxInt64, math.MaxInt64}

// capacityNeed returns the lower bound a job with these tasks and gang
// minimum n needs (gangLowerBound), or never when no state of the cluster
// can hold the gang: fewer than n of its tasks fit the component-wise
// largest node capacity (a task that does not fits no node even empty),
// or the bound exceeds the sum of the capacities. O(tasks log tasks).
func (c *Model) capacityNeed(tasks []Resources, n int) Resources {
	fit := 0
	for _, t := range tasks {
		if t.fits(c.capMax) {
			fit++
		}
	}
	need := gangLowerBound(tasks, n)
	if fit < n || !need.fits(c.capTotal) {
		return never
	}
	return need
}

// mayEverFit is false for a pending job no state of the cluster can hold,
// even with every running job evicted (fewer than its gang minimum of
// tasks fit the component-wise largest capacity, or its smallest tasks
// exceed the capacities' sum), as AddJob decided once: the nodes never
// change after New. True for an unknown or running job. O(1).
func (c *Model) mayEverFit(job string) bool {
	if c == nil {
		return true
	}
	ji, ok := c.jobIndex[job]
	if !ok {
		return true
	}
	cj := &c.jobs[ji]
	return cj.placed > 0 || cj.need != never
}
