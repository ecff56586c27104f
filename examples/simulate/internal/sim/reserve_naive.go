package sim

import (
	"slices"
	"time"
)

// reservations are the reserve-naive policy's head-of-line reservations
// (the simulator's own, beside the library's: reserve_tenure.go). Without
// them, a job that needs a whole node (or several) can wait for days while
// smaller jobs keep taking the GPUs it would need. After each cycle, the
// jobs left pending that have waited -reserve-after (and ask for at least
// -reserve-min-gpus GPUs), in queue order, each
// reserve one node per task, up to -reservations jobs at a time: the nodes
// where a task fits when empty with the most GPUs free now (the fewest to
// drain), lowest index first, among those not reserved already. Until the
// holder starts, no other job may start on (or preempt on) its nodes: they
// drain as their jobs finish or are preempted by the holder. (Letting
// higher priorities through would never drain a node for a Burstable job:
// LS jobs arrive all the time. A higher-priority job that waits long enough
// comes first in queue order for the next reservation.) A reservation lasts
// until its holder starts.
type reservations struct {
	max    int
	owner  []int32           // per node: the holder, or -1
	nodes  map[int32][]int32 // holder -> its nodes
	holder []int32           // holders, in the order they reserved
}

func (r *reservations) init(nodes, max int) {
	r.max = max
	r.owner = make([]int32, nodes)
	for i := range r.owner {
		r.owner[i] = -1
	}
	r.nodes = map[int32][]int32{}
}

// mine returns the nodes job id has reserved (nil for none).
func (r *reservations) mine(id int32) []int32 { return r.nodes[id] }

// usable reports whether job id may use node n.
func (r *reservations) usable(n int, id int32) bool {
	o := r.owner[n]
	return o < 0 || o == id
}

// release ends job id's reservation, if it holds one.
func (r *reservations) release(s *sim, id int32) {
	ns, ok := r.nodes[id]
	if !ok {
		return
	}
	for _, n := range ns {
		r.owner[n] = -1
		s.c.SetMask(int(n), false)
	}
	delete(r.nodes, id)
	r.holder = slices.DeleteFunc(r.holder, func(h int32) bool { return h == id })
}

// consider runs after a cycle's placements: the jobs left pending (in
// queue order) that have waited long enough reserve nodes while fewer than
// max hold some; a job that will have waited long enough later asks for a
// cycle then.
func (r *reservations) consider(s *sim) {
	after := int64(s.env.settings.ReserveAfter / time.Second) // whole seconds (validated)
	wake := int64(0)
	for _, b := range s.left {
		if len(r.holder) >= r.max {
			break
		}
		id := s.q.head(b)
		if s.st[id].status != statusPending || r.nodes[id] != nil {
			continue // placed by the requeue pass, or holding already
		}
		if reserveGPUs(&s.jobs[id]) < int64(s.env.settings.ReserveMinGPUs) {
			continue // smaller than -reserve-min-gpus
		}
		if since := s.st[id].pendingSince; s.now-since < after {
			if w := since + after; wake == 0 || w < wake {
				wake = w
			}
			continue
		}
		r.take(s, id)
	}
	if wake > 0 && len(r.holder) < r.max {
		s.wakeAt(wake)
	}
}

// take reserves nodes for job id; false when the unreserved nodes cannot
// hold its tasks on distinct nodes.
func (r *reservations) take(s *sim, id int32) bool {
	j := &s.jobs[id]
	var cand []int32
	for n := range s.c.Nodes {
		if r.owner[n] < 0 && s.c.EmptyFits(n, j) {
			cand = append(cand, int32(n))
		}
	}
	if len(cand) < int(j.Tasks) {
		return false
	}
	freeGPUs := func(n int32) int {
		k := 0
		for _, g := range s.c.Free[n].GPU {
			if g == 1000 {
				k++
			}
		}
		return k
	}
	slices.SortStableFunc(cand, func(a, b int32) int { return freeGPUs(b) - freeGPUs(a) })
	ns := slices.Clone(cand[:j.Tasks])
	slices.Sort(ns)
	for _, n := range ns {
		r.owner[n] = id
		s.c.SetMask(int(n), true)
	}
	r.nodes[id] = ns
	r.holder = append(r.holder, id)
	s.m.reservations++
	s.wakeAt(s.now) // the next cycle places with the reservation in force
	return true
}
