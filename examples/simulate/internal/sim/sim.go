package sim

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/cluster"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/frag"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/requeue/backoff"
)

// The discrete-event core. Time is whole seconds. Events sit in one heap
// ordered by (time, kind, seq): completions first (they free resources),
// then readiness timeouts, arrivals, backoff ends, and scheduling cycles
// last; seq (insertion order) breaks the remaining ties, so a run is a pure
// function of its inputs. Arrivals are not pushed: they are read from the
// jobs sorted by arrival, which keeps the heap small.
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
	evAdmit // a job's backoff ends
	evCycle
)

type event struct {
	t     int64
	seq   uint64
	job   int32
	epoch int32 // for job events: the state they belong to
	kind  eventKind
}

func (a *event) before(b *event) bool {
	if a.t != b.t {
		return a.t < b.t
	}
	if a.kind != b.kind {
		return a.kind < b.kind
	}
	return a.seq < b.seq
}

// eventHeap is a binary min-heap of events (typed, so pushing allocates
// nothing once grown).
type eventHeap []event

func eventBefore(a, b event) bool { return a.before(&b) }

func (h *eventHeap) push(e event) {
	*h = append(*h, e)
	siftUp(*h, len(*h)-1, eventBefore)
}

func (h *eventHeap) pop() event {
	top, rest := popMin(*h, eventBefore)
	*h = rest
	return top
}

type status uint8

const (
	statusFuture status = iota // not yet arrived
	statusPending
	statusRunning
	statusDone
	statusBackoff     // waiting out a requeue backoff before it may be admitted
	statusDeactivated // given up after failed starts (backoff limit)
)

// jobState is the simulator's mutable view of one job.
type jobState struct {
	status status
	// epoch changes at every start, stop and shrink, so events of an
	// earlier state are recognised and ignored.
	epoch  int32
	runs   int32 // starts so far
	active int32 // tasks running
	// start is the last start (valid while running); segStart the start of
	// the current stretch at a constant number of tasks (the start, or the
	// last shrink).
	start, segStart int64
	progress        int64 // work saved, in task-seconds
	done            int64
	queueTS         int64 // queue-order timestamp (backoff.QueueOrder.Timestamp)
	pendingSince    int64
	evictions       int32
	// nodes holds each task's node (-1: not running); gpus each task's
	// GPUs, j.GPUs entries per task.
	nodes []int32
	gpus  []uint8
}

// Config holds the simulator's knobs.
type Config struct {
	Interval int64 // seconds between scheduling cycles (grid), >= 1
	Horizon  int64 // stop at this instant; jobs not done by then are reported unfinished
	// Window is the interval over which GPU utilisation and fairness are
	// measured; the time series runs from WindowStart to the horizon.
	WindowStart, WindowEnd int64
	Buckets                int // samples in the time series
	// Checkpoint, when > 0, is how often (in seconds of work) a job saves
	// its progress: an evicted job loses only the work since its last
	// checkpoint. 0: evicted jobs restart from scratch.
	Checkpoint int64
	// Restore is the seconds a job evicted after a checkpoint spends
	// loading it when it starts again: its saved progress shrinks by this
	// much (never below none). Save time is in Checkpoint's period and in
	// the jobs' runtimes (see CheckpointRuntime).
	Restore int64
	// Save is the part of each Checkpoint period spent writing the
	// checkpoint: GPU time in use that delivers no work, so goodput
	// leaves out that share of kept time.
	Save int64
	// ThrashWindow: evictions of runs shorter than this count as thrash.
	ThrashWindow int64
	// Placement chooses among the nodes a task fits: first fit (the
	// default, the lowest-numbered node), best fit or frag-gradient.
	Placement frag.Policy
	// Progress, when non-nil, is called every few hundred cycles with the
	// simulated seconds covered so far and in all (up to the horizon).
	Progress func(done, total int64)
}

// sim is one simulation run of one policy.
type sim struct {
	cfg    Config
	guards guards
	jobs   []trace.Job
	st     []jobState
	c      *cluster.State
	pol    *policy
	env    *Env
	ev     eventHeap
	seq    uint64
	// arrivals lists the jobs by arrival (then index); next is the first
	// not yet arrived.
	arrivals []int32
	next     int
	cycle    map[int64]struct{} // grid instants with a cycle already queued

	q        pendingQueues
	now      int64
	nowT     time.Time // at(now), for the library's policy functions
	first    int64     // first arrival
	allocGPU int64     // GPU milli allocated now
	waiting  int       // jobs pending or in backoff
	runningN [trace.NumClasses]int
	inCycle  bool
	m        *metrics
	doneN    int

	// Per cycle: the buckets whose head could not be placed (in queue
	// order), and the jobs evicted (re-queued after the cycle).
	left     []int32
	requeued []int32
	// Shapes that failed to fit / to preempt in this cycle: a job whose
	// demand dominates one of them fails the same way (see dominates).
	// Whole jobs, per cycle: the cycle's counterpart of the engine's Shaper
	// hint, beside the cluster's memory of single tasks that fitted no
	// node (cluster.FitMemory, behind cluster.State.FindFit).
	failFit []shape
	failPre []shapeQueue

	resv reservations
	rec  *recorder // -jobs-out; nil: off

	// Fragmentation: the workload's most common task shapes (the paper's
	// target workload and frag-gradient's), scratch for the waiting
	// shapes and the nodes' view, and the sampling clock.
	shapes                    []frag.Shape
	waitShapes                []frag.Task
	seenShapes                map[frag.Task]struct{}
	fragNodes                 []frag.Node
	fragEvery, nextFragSample int64
	pre                       preemptScratch
	ej                        eligibility.Job // scratch for ejob
	sub                       [1]eligibility.Subgroup
}

// shape is a job's resource demand; jobs with the same shape fit the same places.
type shape struct {
	cpu, mem    int64
	gpus, milli int32
	tasks       int32
}

// shapeQueue is a shape in one team queue at one priority: the jobs
// failedPreempt compares.
type shapeQueue struct {
	shape
	queue, prio int32
}

func shapeOf(j *trace.Job) shape { return shape{j.CPU, j.Mem, j.GPUs, j.GPUMilli, j.Tasks} }

// dominates reports whether a job of shape a is at least as hard to place
// as one of shape b: as much CPU and memory, at least as many GPUs and
// tasks, each at least as large a share. Placement (and placement after
// evicting a given set of candidates) is monotone: if b fits nowhere,
// neither does a.
func (a shape) dominates(b shape) bool {
	return a.cpu >= b.cpu && a.mem >= b.mem && a.gpus >= b.gpus && a.tasks >= b.tasks && (b.gpus == 0 || a.milli >= b.milli)
}

// failedFit reports whether sh dominates a shape that found no room this cycle.
func (s *sim) failedFit(sh shape) bool {
	if NoShapeCache {
		return false
	}
	for _, f := range s.failFit {
		if sh.dominates(f) {
			return true
		}
	}
	return false
}

// shapeCacheLimit bounds the shapes failFit and failPre remember per cycle,
// so a cycle over many distinct shapes costs O(buckets · limit), not
// O(buckets²). Forgetting a failure only costs a placement attempt that
// fails again; it changes no decision.
const shapeCacheLimit = 32

// NoShapeCache turns the per-cycle shape caches off (a test checks that
// they change no decision).
var NoShapeCache = false

// rememberFailedFit records that sh found no room. The list stays an
// antichain: a remembered shape that dominates sh is redundant (whatever
// dominates it dominates sh) and goes; sh itself dominates none of them,
// or failedFit would have skipped it.
func (s *sim) rememberFailedFit(sh shape) {
	s.failFit = slices.DeleteFunc(s.failFit, func(f shape) bool { return f.dominates(sh) })
	if len(s.failFit) < shapeCacheLimit {
		s.failFit = append(s.failFit, sh)
	}
}

// rememberFailedPreempt is rememberFailedFit for preemption.
func (s *sim) rememberFailedPreempt(sq shapeQueue) {
	s.failPre = slices.DeleteFunc(s.failPre, func(f shapeQueue) bool {
		return f.queue == sq.queue && f.prio == sq.prio && f.shape.dominates(sq.shape)
	})
	if len(s.failPre) < shapeCacheLimit {
		s.failPre = append(s.failPre, sq)
	}
}

// failedPreempt is failedFit for preemption from the same leaf queue at the
// same priority. Within a cycle a later such job never has more candidates:
// pending jobs are taken in queue order, and a later timestamp makes fewer
// running jobs "newer" (time-based policy). (A job of another priority
// may: a normal job may take newer jobs of its class in other queues, a
// High one may not; see trace.RankedApart.)
func (s *sim) failedPreempt(sq shapeQueue) bool {
	if NoShapeCache {
		return false
	}
	for _, f := range s.failPre {
		if f.queue == sq.queue && f.prio == sq.prio && sq.shape.dominates(f.shape) {
			return true
		}
	}
	return false
}

func newSim(cfg Config, jobs []trace.Job, nodes []trace.Node, pol *policy, e *Env) *sim {
	s := &sim{
		cfg:   cfg,
		jobs:  jobs,
		st:    make([]jobState, len(jobs)),
		c:     cluster.New(nodes),
		pol:   pol,
		env:   e,
		cycle: make(map[int64]struct{}),
	}
	s.q.init(s)
	s.pre.fail = make([]nodeFail, failWays*len(nodes))
	s.pre.failNext = make([]uint8, len(nodes))
	for i := range s.pre.fail {
		s.pre.fail[i].job = -1
	}
	s.m = newMetrics(cfg, s.c.GPUCap, len(jobs), len(e.leafIDs), e.teams)
	s.arrivals = make([]int32, len(jobs))
	for i := range s.arrivals {
		s.arrivals[i] = int32(i)
	}
	slices.SortStableFunc(s.arrivals, func(a, b int32) int {
		return cmp.Compare(jobs[a].Arrival, jobs[b].Arrival)
	})
	if len(jobs) > 0 {
		s.first = jobs[s.arrivals[0]].Arrival
	}
	s.resv.init(len(nodes), e.settings.Reservations)
	s.fragEvery = max(cfg.Interval, (cfg.Horizon-cfg.WindowStart)/int64(2*max(cfg.Buckets, 1)))
	s.guards.init(s)
	pol.attach(s)
	return s
}

func (s *sim) push(e event) {
	e.seq = s.seq
	s.seq++
	s.ev.push(e)
}

// nextEvent returns the earliest event: the heap's or the next arrival.
func (s *sim) nextEvent() (event, bool) {
	if s.next < len(s.arrivals) {
		id := s.arrivals[s.next]
		a := event{t: s.jobs[id].Arrival, kind: evArrive, job: id}
		if len(s.ev) == 0 || a.before(&s.ev[0]) {
			s.next++
			return a, true
		}
	}
	if len(s.ev) == 0 {
		return event{}, false
	}
	return s.ev.pop(), true
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
	if g > s.cfg.Horizon+iv {
		return // after the end: the run stops first
	}
	if _, ok := s.cycle[g]; ok {
		return
	}
	s.cycle[g] = struct{}{}
	s.push(event{t: g, kind: evCycle, job: -1})
}

// run simulates until every job is done or the horizon passes.
func (s *sim) run() {
	for {
		e, ok := s.nextEvent()
		if !ok {
			break
		}
		if e.t > s.cfg.Horizon {
			s.advance(s.cfg.Horizon)
			break
		}
		s.advance(e.t)
		var st *jobState
		if e.job >= 0 {
			st = &s.st[e.job]
		}
		switch e.kind {
		case evArrive:
			s.setQueueTS(e.job, s.jobs[e.job].Arrival)
			s.addPending(e.job)
			s.rec.arrived(s, e.job)
			s.wakeAt(s.now)
		case evComplete:
			if st.status != statusRunning || st.epoch != e.epoch {
				continue // evicted or resized since
			}
			s.complete(e.job)
		case evTimeout:
			if st.status != statusRunning || st.epoch != e.epoch {
				continue
			}
			s.failedStart(e.job)
		case evAdmit:
			if st.status != statusBackoff || st.epoch != e.epoch {
				continue
			}
			s.pol.bo.admit(s, e.job)
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

// advance moves the clock to t, integrating utilisation, queue length and
// the fairness terms over the time since the last event.
func (s *sim) advance(t int64) {
	s.sampleFragmentation(t)
	s.m.integrate(s.now, t, s.allocGPU, s.waiting)
	if t != s.now || s.nowT.IsZero() {
		s.nowT = at(t)
		s.pol.cyc = s.pol.Tenure.BeginAt(s.nowT) // every decision at t sees t
	}
	s.now = t
}

// addPending queues job id (arrived, evicted, or done with a backoff).
func (s *sim) addPending(id int32) {
	st := &s.st[id]
	if st.status != statusPending && st.status != statusBackoff {
		s.waiting++
		s.m.addDemand(s.env.leafIndex(&s.jobs[id]), s.jobs[id].GPUDemand())
	}
	st.status = statusPending
	st.pendingSince = s.now
	s.q.push(id)
}

// leavePending records that a queued job stopped waiting (it started or was
// given up on); the caller removed it from its queue.
func (s *sim) leavePending(id int32) {
	s.waiting--
	s.m.addDemand(s.env.leafIndex(&s.jobs[id]), -s.jobs[id].GPUDemand())
}

// ejob returns job id as the library's eligibility decisions see it, in
// scratch space valid until the next call.
func (s *sim) ejob(id int32) *eligibility.Job {
	j := &s.jobs[id]
	st := &s.st[id]
	s.sub[0] = eligibility.Subgroup{MinAvailable: j.MinTasks, Active: st.active}
	s.ej = eligibility.Job{
		ID: j.Name, Queue: s.env.leaf(j), Priority: j.Priority(), Preemptible: true,
		Running: st.status == statusRunning, Subgroups: s.sub[:],
	}
	if st.status == statusRunning {
		s.ej.Start = at(st.start)
	}
	return &s.ej
}

// queueEntry is job id as backoff.QueueOrder sees it: its queue-order
// timestamp (computed by QueueOrder.Timestamp when it last changed) stands
// as its creation.
func (s *sim) queueEntry(id int32) backoff.QueueEntry {
	j := &s.jobs[id]
	return backoff.QueueEntry{ID: j.Name, Priority: j.Priority(), Created: at(s.st[id].queueTS)}
}

// setQueueTS sets job id's queue-order timestamp.
func (s *sim) setQueueTS(id int32, ts int64) {
	s.st[id].queueTS = ts
}

// queueCompare orders pending jobs with backoff.QueueOrder: higher priority
// first, then earlier queue-order timestamp, then name.
func (s *sim) queueCompare(a, b int32) int {
	return backoff.QueueOrder{}.Compare(s.queueEntry(a), s.queueEntry(b))
}

// fitFor returns the node one task of job id fits on now, honouring
// reservations: a reserved node only where openReserved lists it (during
// a reservation's requeue pass, passFit's node). -1 when none.
func (s *sim) fitFor(id int32) int {
	if s.cfg.Placement != frag.FirstFit {
		return s.placeScored(id)
	}
	j := &s.jobs[id]
	if tr := s.pol.tr; tr != nil && tr.inPass {
		return tr.passFit(id)
	}
	n := s.c.FindFit(j)
	for _, r := range s.openReserved(id) {
		if (n < 0 || int(r) < n) && s.c.Free[r].Fits(j) {
			n = int(r)
		}
	}
	return n
}

// fitCount returns how many tasks of job id fit as things are, where it
// may run (reservations honoured), at most max. O(nodes with room).
func (s *sim) fitCount(id int32, max int32) int32 {
	j := &s.jobs[id]
	f := &s.pre.free
	k := int32(0)
	for n := s.c.NextFit(0, j); n >= 0 && k < max; n = s.c.NextFit(n+1, j) {
		f.CopyFrom(&s.c.Free[n])
		k += capacity(f, j, max-k)
	}
	for _, n := range s.openReserved(id) {
		if k < max {
			f.CopyFrom(&s.c.Free[n])
			k += capacity(f, j, max-k)
		}
	}
	return k
}

// placeFit starts job id where all its tasks fit now, first fit task by
// task; false (and nothing changed) when they do not.
func (s *sim) placeFit(id int32) bool {
	if !s.fitTasks(id) {
		return false
	}
	s.book(id)
	return true
}

// fitTasks takes room for all of job id's tasks, first fit task by task,
// without starting it (the caller books it, or the requeue model records
// its undo); false, with the tasks already taken given back, when they do
// not all fit.
func (s *sim) fitTasks(id int32) bool {
	j := &s.jobs[id]
	st := &s.st[id]
	s.prepareTasks(id)
	for t := range j.Tasks {
		n := s.fitFor(id)
		if n < 0 {
			for u := t - 1; u >= 0; u-- {
				s.c.Give(int(st.nodes[u]), j, s.taskGPUs(id, int(u)))
				st.nodes[u] = -1
			}
			return false
		}
		s.takeTask(id, int(t), n)
	}
	return true
}

// prepareTasks sizes job id's per-task placement slices, all tasks unplaced.
func (s *sim) prepareTasks(id int32) {
	j := &s.jobs[id]
	st := &s.st[id]
	if st.nodes == nil {
		st.nodes = make([]int32, j.Tasks)
		st.gpus = make([]uint8, int(j.Tasks)*int(j.GPUs))
	}
	for t := range st.nodes {
		st.nodes[t] = -1
	}
}

// taskGPUs returns the GPUs task t of job id holds.
func (s *sim) taskGPUs(id int32, t int) []uint8 {
	g := int(s.jobs[id].GPUs)
	return s.st[id].gpus[t*g : (t+1)*g]
}

// takeTask places task t of job id on node n (which fits it). Under
// frag-gradient placement a GPU-sharing task takes the GPU the gradient
// scored the node with; otherwise the cluster's choice (the fullest GPU
// that fits a share, the lowest-numbered whole GPUs).
func (s *sim) takeTask(id int32, t, n int) {
	j := &s.jobs[id]
	if s.cfg.Placement == frag.FragGradient && j.GPUs == 1 && j.GPUMilli < 1000 {
		g := frag.GradientGPUs(nodeOf(&s.c.Free[n]), taskOf(j), s.shapes)
		own := s.taskGPUs(id, t)
		own[0] = uint8(g[0])
		s.c.TakeExact(n, j, own)
		s.st[id].nodes[t] = int32(n)
		return
	}
	gpus := s.c.Take(n, j, s.taskGPUs(id, t)[:0])
	copy(s.taskGPUs(id, t), gpus)
	s.st[id].nodes[t] = int32(n)
}

// book records that job id now runs with all its tasks where st.nodes says
// (the nodes' free resources are already updated).
func (s *sim) book(id int32) {
	j := &s.jobs[id]
	st := &s.st[id]
	s.leavePending(id)
	for t, n := range st.nodes {
		s.c.Running[n] = append(s.c.Running[n], cluster.TaskRef{Job: id, Task: int32(t)})
	}
	st.status = statusRunning
	s.startedAfterDelay(id)
	st.start, st.segStart = s.now, s.now
	st.active = j.Tasks
	st.epoch++
	st.runs++
	s.allocGPU += j.GPUDemand()
	s.m.addAlloc(s.env.leafIndex(j), j.GPUDemand())
	s.runningN[j.Class]++
	if s.now < j.ReadyAfter {
		s.push(event{t: s.now + trace.ReadinessTimeout, kind: evTimeout, job: id, epoch: st.epoch})
	} else {
		s.scheduleCompletion(id)
	}
	s.resv.release(s, id)
	s.pol.started(s, id)
	s.rec.started(s, id)
}

// scheduleCompletion queues the completion of running job id at its
// current number of tasks.
func (s *sim) scheduleCompletion(id int32) {
	j := &s.jobs[id]
	st := &s.st[id]
	rest := j.Work() - st.progress
	a := int64(st.active)
	s.push(event{t: st.segStart + (rest+a-1)/a, kind: evComplete, job: id, epoch: st.epoch})
}

// unbook records that running job id no longer runs (its tasks' resources
// were already given back).
func (s *sim) unbook(id int32) {
	j := &s.jobs[id]
	st := &s.st[id]
	for t, n := range st.nodes {
		if n >= 0 {
			s.dropRunning(int(n), cluster.TaskRef{Job: id, Task: int32(t)})
			st.nodes[t] = -1
		}
	}
	d := int64(st.active) * j.TaskGPU()
	s.allocGPU -= d
	s.m.addAlloc(s.env.leafIndex(j), -d)
	s.runningN[j.Class]--
	st.active = 0
	st.epoch++
	s.pol.stopped(s, id)
}

// dropRunning removes one task from node n's running list. O(tasks on n).
func (s *sim) dropRunning(n int, r cluster.TaskRef) {
	rs := s.c.Running[n]
	for i := range rs {
		if rs[i] == r {
			rs[i] = rs[len(rs)-1]
			s.c.Running[n] = rs[:len(rs)-1]
			return
		}
	}
	panic(fmt.Sprintf("simulate: internal error: task %d of job %d not on node %d", r.Task, r.Job, n))
}

// giveAll frees the resources of every running task of job id.
func (s *sim) giveAll(id int32) {
	st := &s.st[id]
	for t, n := range st.nodes {
		if n >= 0 {
			s.c.Give(int(n), &s.jobs[id], s.taskGPUs(id, t))
		}
	}
}

// complete finishes running job id.
func (s *sim) complete(id int32) {
	st := &s.st[id]
	s.m.keep(id, st.segStart, s.now, int64(st.active)*s.jobs[id].TaskGPU())
	s.rec.finished(s, id)
	s.giveAll(id)
	st.progress = s.jobs[id].Work()
	s.unbook(id)
	st.status = statusDone
	st.done = s.now
	s.doneN++
	s.m.complete(s, id)
	if s.waiting > 0 {
		s.wakeAt(s.now)
	}
}

// Eviction causes, for the report. They are exclusive: requeue (by the
// expected-runtime requeue engine); time-based (an equal-priority job held
// its place longer than minAdmitDuration: the time-based policy's expired
// picks, which Kueue reports as InClusterQueueTimeBased); otherwise preempt
// (victim in the preemptor's own team queue: KAI-Scheduler's preempt
// action) or reclaim (in another queue).
type cause uint8

const (
	causePreempt cause = iota
	causeReclaim
	causeTimeBased
	causeRequeue
	numCauses
)

// causeOf classifies an eviction of victim for preemptor by outside the
// requeue engine; expired says the library classed it as expired.
func (s *sim) causeOf(by, victim int32, expired bool) cause {
	switch {
	case expired:
		return causeTimeBased
	case s.env.leafIndex(&s.jobs[by]) == s.env.leafIndex(&s.jobs[victim]):
		return causePreempt
	}
	return causeReclaim
}

// evictFreed stops running job victim, whose resources were already given
// back, in favour of job by: it loses its work since its last checkpoint
// (all of this run's work when there are none) and is re-queued after the
// current cycle.
func (s *sim) evictFreed(victim, by int32, c cause) {
	st := &s.st[victim]
	j := &s.jobs[victim]
	unsaved := s.unsaved(victim)
	a := int64(st.active)
	st.progress += a * (s.now - st.segStart - unsaved)
	if r := s.cfg.Restore; r > 0 && st.progress > 0 {
		st.progress = max(st.progress-r*int64(j.Tasks), 0)
	}
	s.m.keep(victim, st.segStart, s.now-unsaved, a*j.TaskGPU())
	s.m.evicted(s, victim, c, s.now-unsaved, a*j.TaskGPU(), s.now-st.start)
	s.rec.evicted(s, victim, by, causeNames[c], a*j.TaskGPU()*unsaved)
	s.unbook(victim)
	st.status = statusFuture // re-queued by runCycle
	st.evictions++
	s.requeued = append(s.requeued, victim)
}

// shrinkFreed takes the given tasks (already freed) from running elastic
// job id in favour of job by, and id keeps its progress and continues,
// more slowly, on the rest.
func (s *sim) shrinkFreed(id, by int32, tasks []int32) {
	j := &s.jobs[id]
	st := &s.st[id]
	st.progress += int64(st.active) * (s.now - st.segStart)
	s.m.keep(id, st.segStart, s.now, int64(st.active)*j.TaskGPU())
	st.segStart = s.now
	for _, t := range tasks {
		s.dropRunning(int(st.nodes[t]), cluster.TaskRef{Job: id, Task: t})
		st.nodes[t] = -1
	}
	k := int64(len(tasks))
	st.active -= int32(k)
	s.allocGPU -= k * j.TaskGPU()
	s.m.addAlloc(s.env.leafIndex(j), -k*j.TaskGPU())
	s.m.shrunk(s, id, len(tasks))
	s.rec.shrunk(s, id, by)
	st.epoch++
	s.scheduleCompletion(id)
}

// unsaved returns the seconds of the current stretch that running job id
// would lose if evicted now: all of it, or with checkpoints the part since
// the last one.
func (s *sim) unsaved(id int32) int64 {
	ran := s.now - s.st[id].segStart
	if cp := s.cfg.Checkpoint; cp > 0 {
		return ran % cp
	}
	return ran
}

// infeasible reports whether job id could not finish before the horizon
// even if it ran alone from its arrival.
func (s *sim) infeasible(id int32) bool {
	j := &s.jobs[id]
	return j.Arrival+j.Runtime > s.cfg.Horizon
}

// lostIfEvicted is the GPU milli-seconds evicting running job id would lose now.
func (s *sim) lostIfEvicted(id int32) int64 {
	return s.unsaved(id) * int64(s.st[id].active) * s.jobs[id].TaskGPU()
}

// failedStart evicts running job id whose start failed (it did not become
// ready within trace.ReadinessTimeout). The policy decides when it may start again
// and where it queues, or gives up on it.
func (s *sim) failedStart(id int32) {
	st := &s.st[id]
	j := &s.jobs[id]
	s.m.failedStart(s, id, st.start, j.GPUDemand())
	s.rec.evicted(s, id, -1, "failed_start", j.GPUDemand()*(s.now-st.start))
	s.giveAll(id)
	s.unbook(id)
	s.waiting++ // waiting again (backoff or pending)
	s.m.addDemand(s.env.leafIndex(j), j.GPUDemand())
	st.status = statusBackoff
	if s.pol.bo == nil {
		s.addPending(id) // retried at once, keeping its place
	} else {
		s.pol.bo.timedOut(s, id)
	}
	if s.waiting > 0 {
		s.wakeAt(s.now) // its resources are free
	}
}

// runCycle is one scheduling cycle, in the order of KAI-Scheduler's actions:
// tenure's reservations first (reserve policy: Cycle.Reserve, whose due
// passes may requeue jobs and start holders), then allocation and
// preemption in queue order (backoff.QueueOrder), then the requeue pass
// over the jobs still pending, then the simulator's head-of-line
// reservation (reserve-naive). A job that can neither fit nor preempt
// stays pending, and jobs behind it may still start (unless a reservation
// holds nodes for it).
func (s *sim) runCycle() {
	s.requeued = s.requeued[:0]
	s.failFit, s.failPre = s.failFit[:0], s.failPre[:0]
	s.left = s.left[:0]
	if s.pol.tr != nil {
		s.pol.tr.plan() // before placements: they honour its reservations
	}
	s.q.beginCycle()
	for {
		b, ok := s.q.nextBucket()
		if !ok {
			break
		}
		if s.place(s.q.head(b)) {
			s.q.popHead(b)
			continue
		}
		s.left = append(s.left, b)
	}
	if s.pol.rq != nil && len(s.left) > 0 {
		s.pol.rq.run(s)
	}
	if s.pol.Reserve {
		s.resv.consider(s)
	}
	for _, id := range s.requeued {
		s.addPending(id)
	}
	if len(s.requeued) > 0 {
		s.wakeAt(s.now)
	}
}

// place starts pending job id where it fits, or by preemption. A job
// holding a reservation has nodes no other job may use, so the shape
// caches neither apply to it nor learn from it... except that its failure
// to preempt is also the failure of every job of its queue it dominates.
func (s *sim) place(id int32) bool {
	j := &s.jobs[id]
	sh := shapeOf(j)
	holder := s.reservationsApply(id)
	if holder || !s.failedFit(sh) {
		if s.placeFit(id) {
			return true
		}
		if !holder {
			s.rememberFailedFit(sh)
		}
	}
	sq := shapeQueue{sh, s.env.leafIndex(j), j.Priority()}
	if holder || !s.failedPreempt(sq) {
		if s.preempt(id) {
			s.failFit, s.failPre = s.failFit[:0], s.failPre[:0]
			return true
		}
		s.rememberFailedPreempt(sq)
	}
	return false
}
