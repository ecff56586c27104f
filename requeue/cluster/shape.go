package cluster

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/tenurepolicy/tenure/requeue"
)

var (
	_ requeue.Shaper     = (*Model)(nil)
	_ requeue.FitBounder = (*Model)(nil)
)

// Shape implements [requeue.Shaper]: for a pending job, a key of its gang
// minimum and task requests (first fit places two jobs with one key
// alike); ok is false for an unknown or running job. O(tasks); allocates.
func (c *Model) Shape(job string) (key string, ok bool) {
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

// MayFit implements [requeue.FitBounder]: it sets fits[i] to false when the
// gang of jobs[i] cannot fit even with victim's tasks released, by the
// cluster-wide free total and by the tasks that fit no node's free
// resources, which can go only to the room the victim leaves on its nodes.
// It sets true for an unknown or running job, and for every job when the
// victim is unknown or not running. O(victim tasks² + job tasks); no
// allocation.
func (c *Model) MayFit(victim string, jobs []string, fits []bool) {
	if c == nil {
		for i := range fits {
			fits[i] = true
		}
		return
	}
	free, largest := c.free, noRoom // noRoom: no node, nothing fits
	if len(c.nodes) > 0 {
		largest = c.largestFree()
	}
	var room Resources // what the victim leaves free on its own nodes
	vi := int32(-1)
	if victim != "" {
		var ok bool
		vi, ok = c.jobIndex[victim]
		if !ok || c.jobs[vi].placed == 0 {
			for i := range fits {
				fits[i] = true // Evict will report the error
			}
			return
		}
		v := &c.jobs[vi]
		for t, n := range v.on {
			if n < 0 {
				continue
			}
			free = free.add(v.tasks[t])
			room = room.add(v.tasks[t])
			if !slices.Contains(v.on[:t], n) {
				room = room.add(c.nodes[n].free)
			}
		}
	}
	for i, job := range jobs {
		ji, ok := c.jobIndex[job]
		fits[i] = !ok || ji == vi || c.jobs[ji].placed > 0 || c.gangMayFit(&c.jobs[ji], free, largest, room, room)
	}
}

// gangMayFit applies MayFit's two tests to one pending job: a task that
// does not fit largest must fit fit (a bound on the room of any one node
// the victims leave) and the victims' room holds at most room of them.
func (c *Model) gangMayFit(cj *clusterJob, free, largest, fit, room Resources) bool {
	if len(c.nodes) == 0 || !cj.need.fits(free) {
		return false
	}
	// Tasks that fit some node as things are count as placeable; the others
	// can only go to the victim's room.
	placeable, inRoom := 0, 0
	smallest := Resources{math.MaxInt64, math.MaxInt64, math.MaxInt64}
	for _, t := range cj.tasks {
		switch {
		case t.fits(largest):
			placeable++
		case t.fits(fit):
			inRoom++
			smallest = Resources{min(smallest.MilliCPU, t.MilliCPU), min(smallest.Memory, t.Memory), min(smallest.GPU, t.GPU)}
		}
	}
	if inRoom > 0 {
		inRoom = min(inRoom, fitCount(room.MilliCPU, smallest.MilliCPU), fitCount(room.Memory, smallest.Memory), fitCount(room.GPU, smallest.GPU))
	}
	return placeable+inRoom >= int(cj.min)
}

// fitCount returns how many requests of size each fit in room (any number
// when each is 0).
func fitCount(room, each int64) int {
	if each <= 0 {
		return math.MaxInt
	}
	return int(min(room/each, math.MaxInt32))
}
