package main

import (
	"container/heap"
	"fmt"
	"slices"
	"time"
)

// The discrete-event core. Time is whole seconds. Three kinds of events sit in
// one heap ordered by (time, kind, seq): completions first (they free
// resources), then arrivals, then scheduling cycles; seq (insertion order)
// breaks the remaining ties, so a run is a pure function of its inputs.
//
// Scheduling cycles happen on a fixed grid (multiples of Config.Interval) but
// only when something may have changed: an arrival, a completion, an eviction,
// or a wake-up instant that a policy decision named (a protection expiry, a
// cooldown end, ...). A months-long trace therefore costs a cycle per burst of
// activity, not one per grid point.

type eventKind uint8

const (
	evComplete eventKind = iota
	evTimeout            // a failed start reaches the readiness timeout
	evArrive
	evCycle
)

type event struct {
	t     int64
	kind  eventKind
	seq   uint64
	job   int32
	epoch int32 // for completions: the run they belong to
}

type eventHeap []event

func (h eventHeap) Len() int { return len(h) }
func (h eventHeap) Less(i, j int) bool {
	a, b := &h[i], &h[j]
	if a.t != b.t {
		return a.t < b.t
	}
	if a.kind != b.kind {
		return a.kind < b.kind
	}
	return a.seq < b.seq
}
func (h eventHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *eventHeap) Push(x any)   { *h = append(*h, x.(event)) }
func (h *eventHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

type status uint8

const (
	statusFuture status = iota // not yet arrived
	statusPending
	statusRunning
	statusDone
	statusDeactivated // given up after failed starts (backoff limit)
)

// jobState is the simulator's mutable view of one job.
type jobState struct {
	status  status
	node    int32
	epoch   int32 // incremented at every start and eviction
	start   int64 // last start (valid while running)
	queueTS int64 // queue-order timestamp: arrival unless a policy moves it
	gpus    []uint8
	nodePos int32 // index in cluster.running[node]

	progress  int64 // work saved by checkpoints (Config.Checkpoint)
	done      int64
	evictions int32
}

// Config holds the simulator's knobs.
type Config struct {
	Interval int64 // seconds between scheduling cycles (grid), >= 1
	Horizon  int64 // stop at this instant; jobs not done by then are reported unfinished
	// Window is the interval over which GPU utilisation is measured; the
	// time series runs from WindowStart to the end of the run.
	WindowStart, WindowEnd int64
	Buckets                int // samples in the time series
	// Checkpoint, when > 0, is how often (in seconds of work) a job saves
	// its progress: an evicted job loses only the work since its last
	// checkpoint. 0: evicted jobs restart from scratch.
	Checkpoint int64
	// Progress, when non-nil, is called every few hundred cycles with the
	// simulated seconds covered so far and in all (up to the horizon).
	Progress func(done, total int64)
}

// sim is one simulation run of one policy.
type sim struct {
	cfg   Config
	jobs  []Job
	st    []jobState
	c     *cluster
	pol   policy
	env   *env
	ev    eventHeap
	seq   uint64
	cycle map[int64]struct{} // grid instants with a cycle already queued

	pending  []int32 // sorted by pendingLess
	now      int64
	nowT     time.Time // at(now), for the library's policy functions
	first    int64     // first arrival
	allocGPU int64     // GPU milli allocated now
	runningN [numClasses]int
	inCycle  bool
	m        *metrics
	doneN    int

	// Scratch reused across cycles.
	victims  []int32
	bestVics []int32
	scratch  nodeFree
	requeued []int32
	// Shapes that failed to fit / to preempt in this cycle: a job whose
	// demand dominates one of them fails the same way (see dominates).
	failFit []shape
	failPre []shapeQueue
}

// shape is a job's resource demand; jobs with the same shape fit the same places.
type shape struct {
	cpu, mem    int64
	gpus, milli int32
}

type shapeQueue struct {
	shape
	queue int32
}

func shapeOf(j *Job) shape { return shape{j.CPU, j.Mem, j.GPUs, j.GPUMilli} }

// dominates reports whether a job of shape a is at least as hard to place
// as one of shape b: as much CPU and memory, at least as many GPUs, each at
// least as large a share. Placement (and placement after evicting a given set
// of candidates) is monotone: if b fits nowhere, neither does a.
func (a shape) dominates(b shape) bool {
	return a.cpu >= b.cpu && a.mem >= b.mem && a.gpus >= b.gpus && (b.gpus == 0 || a.milli >= b.milli)
}

// failedFit reports whether sh dominates a shape that found no room this cycle.
func (s *sim) failedFit(sh shape) bool {
	for _, f := range s.failFit {
		if sh.dominates(f) {
			return true
		}
	}
	return false
}

// failedPreempt is failedFit for preemption from the same leaf queue. Within a
// cycle a later job of the same queue never has more candidates: pending
// jobs are taken in queue-order-timestamp order, and a later timestamp makes
// fewer running jobs "newer" (time-based policy).
func (s *sim) failedPreempt(sq shapeQueue) bool {
	for _, f := range s.failPre {
		if f.queue == sq.queue && sq.shape.dominates(f.shape) {
			return true
		}
	}
	return false
}

func newSim(cfg Config, jobs []Job, nodes []Node, pol policy, e *env) *sim {
	s := &sim{
		cfg:   cfg,
		jobs:  jobs,
		st:    make([]jobState, len(jobs)),
		c:     newCluster(nodes),
		pol:   pol,
		env:   e,
		cycle: make(map[int64]struct{}),
	}
	s.m = newMetrics(cfg, len(jobs), s.c.gpuCap)
	s.first = jobs[0].Arrival
	for i := range jobs {
		s.first = min(s.first, jobs[i].Arrival)
		s.push(event{t: jobs[i].Arrival, kind: evArrive, job: int32(i)})
	}
	return s
}

func (s *sim) push(e event) {
	e.seq = s.seq
	s.seq++
	heap.Push(&s.ev, e)
}

// wakeAt asks for a scheduling cycle at the first grid instant >= t, never
// in the past, and strictly after now when asked from within a cycle (so a
// cycle cannot re-trigger itself at the same instant).
func (s *sim) wakeAt(t int64) {
	iv := s.cfg.Interval
	switch {
	case s.inCycle && t <= s.now:
		t = s.now + 1
	case t < s.now:
		t = s.now
	}
	g := (t + iv - 1) / iv * iv
	if _, ok := s.cycle[g]; ok {
		return
	}
	s.cycle[g] = struct{}{}
	s.push(event{t: g, kind: evCycle, job: -1})
}

// run simulates until every job is done or the horizon passes.
func (s *sim) run() {
	for len(s.ev) > 0 {
		e := heap.Pop(&s.ev).(event)
		if e.t > s.cfg.Horizon {
			s.advance(s.cfg.Horizon)
			break
		}
		s.advance(e.t)
		switch e.kind {
		case evArrive:
			s.st[e.job].status = statusPending
			s.st[e.job].queueTS = s.jobs[e.job].Arrival
			s.addPending(e.job)
			s.wakeAt(s.now)
		case evComplete:
			st := &s.st[e.job]
			if st.status != statusRunning || st.epoch != e.epoch {
				continue // the run was evicted
			}
			s.release(e.job)
			st.status = statusDone
			st.done = s.now
			s.doneN++
			s.m.complete(&s.jobs[e.job], st)
			if len(s.pending) > 0 {
				s.wakeAt(s.now)
			}
		case evTimeout:
			st := &s.st[e.job]
			if st.status != statusRunning || st.epoch != e.epoch {
				continue
			}
			s.failedStart(e.job)
		case evCycle:
			delete(s.cycle, e.t)
			s.m.cycles++
			if s.cfg.Progress != nil && s.m.cycles%256 == 0 {
				s.cfg.Progress(s.now-s.first, s.cfg.Horizon-s.first)
			}
			s.inCycle = true
			s.runCycle()
			s.inCycle = false
		}
	}
	s.advance(max(s.now, s.cfg.WindowEnd))
	s.m.finish(s)
}

// advance moves the clock to t, integrating utilisation and queue length.
func (s *sim) advance(t int64) {
	s.m.integrate(s.now, t, s.allocGPU, len(s.pending))
	if t != s.now || s.nowT.IsZero() {
		s.nowT = at(t)
	}
	s.now = t
}

func (s *sim) pendingLess(a, b int32) int {
	pa, pb := s.jobs[a].Class.Priority(), s.jobs[b].Class.Priority()
	if pa != pb {
		return int(pb) - int(pa) // higher priority first
	}
	ta, tb := s.st[a].queueTS, s.st[b].queueTS
	if ta != tb {
		if ta < tb {
			return -1
		}
		return 1
	}
	return int(a) - int(b)
}

func (s *sim) addPending(id int32) {
	i, _ := slices.BinarySearchFunc(s.pending, id, s.pendingLess)
	s.pending = slices.Insert(s.pending, i, id)
}

// start places pending job id on node n.
func (s *sim) start(id int32, n int) {
	st := &s.st[id]
	st.gpus = s.c.free[n].take(&s.jobs[id], st.gpus[:0])
	s.book(id, n)
}

// book records that job id now runs on node n, holding st.gpus there (the
// node's free resources are already updated).
func (s *sim) book(id int32, n int) {
	j := &s.jobs[id]
	st := &s.st[id]
	st.node = int32(n)
	st.nodePos = int32(len(s.c.running[n]))
	s.c.running[n] = append(s.c.running[n], id)
	st.status = statusRunning
	st.start = s.now
	st.epoch++
	s.allocGPU += j.GPUDemand()
	s.runningN[j.Class]++
	if s.now < j.ReadyAfter {
		s.push(event{t: s.now + readinessTimeout, kind: evTimeout, job: id, epoch: st.epoch})
	} else {
		s.push(event{t: s.now + j.Runtime - st.progress, kind: evComplete, job: id, epoch: st.epoch})
	}
	s.pol.started(s, id)
}

// release frees running job id's resources.
func (s *sim) release(id int32) {
	st := &s.st[id]
	s.c.free[st.node].give(&s.jobs[id], st.gpus)
	s.unbook(id)
}

// unbook records that job id no longer runs (its node's free resources are
// already updated).
func (s *sim) unbook(id int32) {
	j := &s.jobs[id]
	st := &s.st[id]
	n := st.node
	r := s.c.running[n]
	last := r[len(r)-1]
	r[st.nodePos] = last
	s.st[last].nodePos = st.nodePos
	s.c.running[n] = r[:len(r)-1]
	s.allocGPU -= j.GPUDemand()
	s.runningN[j.Class]--
	s.pol.stopped(s, id)
}

// evict stops running job victim in favour of job by (the preemptor, or -1),
// losing its work since its last checkpoint (all of this run's work when
// there are none); it is requeued after the current cycle.
func (s *sim) evict(victim, by int32) {
	s.c.free[s.st[victim].node].give(&s.jobs[victim], s.st[victim].gpus)
	s.evictBooked(victim, by)
}

// evictBooked is evict for a victim whose resources were already freed.
func (s *sim) evictBooked(victim, by int32) {
	st := &s.st[victim]
	ran := s.now - st.start
	lost := s.unsaved(victim)
	st.progress += ran - lost
	s.m.evicted(&s.jobs[victim], lost, ran < s.env.minRuntime(by, victim))
	s.unbook(victim)
	st.status = statusPending
	st.epoch++
	st.evictions++
	s.requeued = append(s.requeued, victim)
}

// unsaved returns the seconds of work running job id would lose if evicted
// now: all of its current run, or with checkpoints the part since the last.
func (s *sim) unsaved(id int32) int64 {
	ran := s.now - s.st[id].start
	if cp := s.cfg.Checkpoint; cp > 0 {
		return ran % cp
	}
	return ran
}

// failedStart evicts running job id whose start failed (it did not become
// ready within readinessTimeout). The policy decides when it may start again
// and where it queues, or gives up on it.
func (s *sim) failedStart(id int32) {
	st := &s.st[id]
	s.m.failedStart(&s.jobs[id], s.now-st.start)
	s.release(id)
	st.epoch++
	if s.pol.timedOut(s, id) {
		st.status = statusDeactivated
		return
	}
	st.status = statusPending
	s.addPending(id)
	s.wakeAt(s.now)
}

// runCycle is one scheduling cycle: the policy's pre-pass (requeue), then
// pending jobs in order (priority, then queue-order timestamp, then ID) are
// placed where they fit, or by preempting; a job that can do neither stays
// pending and lower-priority jobs may still be placed behind it (no
// reservations).
func (s *sim) runCycle() {
	s.requeued = s.requeued[:0]
	s.failFit, s.failPre = s.failFit[:0], s.failPre[:0]
	s.pol.beforeCycle(s)
	keep := s.pending[:0]
	for _, id := range s.pending {
		if s.st[id].status != statusPending {
			continue // placed by the pre-pass
		}
		if !s.pol.admissible(s, id) {
			keep = append(keep, id)
			continue
		}
		j := &s.jobs[id]
		sh := shapeOf(j)
		if !s.failedFit(sh) {
			if n := s.c.findFit(j); n >= 0 {
				s.start(id, n)
				continue
			}
			s.failFit = append(s.failFit, sh)
		}
		sq := shapeQueue{sh, s.env.leafIndex(j)}
		if !s.failedPreempt(sq) {
			if s.preempt(id) {
				s.failFit, s.failPre = s.failFit[:0], s.failPre[:0]
				continue
			}
			s.failPre = append(s.failPre, sq)
		}
		keep = append(keep, id)
	}
	s.pending = keep
	for _, id := range s.requeued {
		s.addPending(id)
	}
	if len(s.requeued) > 0 {
		s.wakeAt(s.now)
	}
}

// roomIfEvicted reports whether j would fit on node n if every running job
// of class <= limit were gone: a cheap bound that spares asking the policy
// about nodes where no choice of victims can work.
func (s *sim) roomIfEvicted(n int, j *Job, limit Class) bool {
	if limit >= numClasses { // cannot happen; keeps the bound safe
		return true
	}
	s.scratch.copyFrom(&s.c.free[n])
	if s.scratch.fits(j) {
		return true
	}
	for _, v := range s.c.running[n] {
		if s.jobs[v].Class <= limit {
			s.scratch.give(&s.jobs[v], s.st[v].gpus)
		}
	}
	return s.scratch.fits(j)
}

// preempt tries to place pending job p by evicting running jobs the policy
// allows. Among nodes where the candidates (taken in the policy's victim
// order) free enough room, it picks the one needing the fewest evictions,
// then the least lost work (GPU-seconds), then the lowest node index.
func (s *sim) preempt(p int32) bool {
	j := &s.jobs[p]
	if !s.pol.mayPreempt(s, p) {
		return false
	}
	best, bestN, bestLost := -1, 0, int64(0)
	limit := s.jobs[p].Class // victims must be of a lower class, or equal when
	if !s.pol.equalPriorityVictims() {
		limit--
	}
	wake := int64(0) // earliest instant a denied candidate may become allowed
	for n := range s.c.nodes {
		if !s.c.emptyFits(n, j) || !s.roomIfEvicted(n, j, limit) {
			continue
		}
		s.victims = s.victims[:0]
		for _, v := range s.c.running[n] {
			if s.jobs[v].Class > limit {
				continue
			}
			if ok, until := s.pol.candidate(s, p, v); ok {
				s.victims = append(s.victims, v)
			} else if until > s.now && (wake == 0 || until < wake) {
				wake = until
			}
		}
		if len(s.victims) == 0 {
			continue
		}
		slices.SortFunc(s.victims, func(a, b int32) int { return s.pol.victimOrder(s, p, a, b) })
		s.scratch.copyFrom(&s.c.free[n])
		k, lost := 0, int64(0)
		for k < len(s.victims) && !s.scratch.fits(j) {
			v := s.victims[k]
			s.scratch.give(&s.jobs[v], s.st[v].gpus)
			lost += s.unsaved(v) * s.jobs[v].GPUDemand()
			k++
		}
		if !s.scratch.fits(j) {
			continue
		}
		if best < 0 || k < bestN || (k == bestN && lost < bestLost) {
			best, bestN, bestLost = n, k, lost
			s.bestVics = append(s.bestVics[:0], s.victims[:k]...)
		}
	}
	if best < 0 {
		if wake > 0 {
			s.wakeAt(wake)
		}
		return false
	}
	for _, v := range s.bestVics {
		if en, ok := s.pol.(evictionNoter); ok {
			en.noteEviction(s, p, v)
		}
		s.evict(v, p)
	}
	if !s.c.free[best].fits(j) {
		panic(fmt.Sprintf("simulate: internal error: job %s does not fit node %d after evicting %d victims", j.Name, best, len(s.bestVics)))
	}
	s.start(p, best)
	return true
}
