package requeue

import "encoding/binary"

var (
	_ Shaper     = (*Cluster)(nil)
	_ FitBounder = (*Cluster)(nil)
)

// Shape implements [Shaper]: for a registered job that is not running, a key
// made of its gang minimum and its task requests in order (first fit places
// two jobs with the same key alike). ok is false for an unknown or running
// job. O(tasks); allocates the key.
func (c *Cluster) Shape(job string) (key string, ok bool) {
	if c == nil {
		return "", false
	}
	ji, found := c.jobIndex[job]
	if !found || c.jobs[ji].placed > 0 {
		return "", false
	}
	cj := &c.jobs[ji]
	b := make([]byte, 0, 8+24*len(cj.tasks))
	b = binary.LittleEndian.AppendUint64(b, uint64(cj.min))
	for _, t := range cj.tasks {
		b = binary.LittleEndian.AppendUint64(b, uint64(t.MilliCPU))
		b = binary.LittleEndian.AppendUint64(b, uint64(t.Memory))
		b = binary.LittleEndian.AppendUint64(b, uint64(t.GPU))
	}
	return string(b), true
}

// MayFit implements [FitBounder]. It returns false when the job's gang
// cannot fit even with victim's tasks released: the cluster-wide free total
// (plus the victim's requests) is below the gang's lower bound, or fewer
// than the gang minimum of its tasks fit the component-wise largest free
// vector of any node (a node of the victim counts with all the victim's
// requests added to its free resources). It returns true for an unknown or
// running job, and for a victim that is unknown or not running. O(tasks of job + tasks of victim); no allocation.
func (c *Cluster) MayFit(job, victim string) bool {
	if c == nil {
		return true
	}
	ji, ok := c.jobIndex[job]
	if !ok || c.jobs[ji].placed > 0 {
		return true
	}
	if len(c.nodes) == 0 {
		return false
	}
	free, largest := c.free, c.tree[1]
	if victim != "" {
		vi, ok := c.jobIndex[victim]
		if !ok || vi == ji || c.jobs[vi].placed == 0 {
			return true // Evict will report the error
		}
		v := &c.jobs[vi]
		var held Resources
		for t, n := range v.on {
			if n >= 0 {
				held = held.Add(v.tasks[t])
			}
		}
		free = free.Add(held)
		for _, n := range v.on {
			if n >= 0 {
				largest = largest.Max(c.nodes[n].free.Add(held))
			}
		}
	}
	cj := &c.jobs[ji]
	if !cj.need.Fits(free) {
		return false
	}
	fit := 0
	for _, t := range cj.tasks {
		if t.Fits(largest) {
			fit++
		}
	}
	return fit >= cj.min
}
