package sim

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/policies"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/reserve"
)

// tenureReserve is the reserve policy: tenure's reservations
// (requeue/reserve, composed in the run's tenure.Policy as
// Config.Reservation; policies.ReservationConfig). The simulator plays
// the embedding scheduler:
//
//   - at the start of every cycle, before placements, it turns its state
//     into a reserve.Input and calls Cycle.Reserve with the requeue
//     pass's model (simModel): the nodes, with their GPUs as units; the
//     running jobs per node, with the GPUs they hold there and the
//     engine's victim data; the pending jobs in queue order;
//   - it applies what the due passes committed as the requeue pass does
//     (the victims are requeued, cause requeue; the holder starts where
//     the pass placed it), masks the reserved nodes and sleeps until the
//     result's Wake;
//   - before any pending job starts or preempts on a reserved node it asks
//     Cycle.Backfill, and honours a denial (openReserved, nodeUsable).
//
// Units are whole GPUs. A node offers its GPUs. A whole-GPU task holds
// its GPUs; a GPU shared by fractional tasks counts once, for the sharer
// the planner releases last (the latest of its expected end and its
// protection end), since it is free for a whole-GPU task only when all
// have left; the other sharers hold none of it. A pending job asks for
// GPUs per task (a fractional task counts one); a job without GPUs holds
// no reservation. CPU and memory are planned through the run's
// reserve.Config.Fits (fits): a job holds only nodes whose CPUs, memory
// and GPUs could take one of its tasks, empty.
//
// Each running job's Expected is its team queue's -expected-runtime (the
// requeue policy's, from Env.leafExpected), its ProtectedUntil its start
// plus the longest min-runtime protection any queue's job faces evicting
// it (protection: Cycle.CheckVictim, preempt and reclaim, by every team
// queue), so a planned start never counts on an eviction the pass's
// min-runtime filter would refuse. A pending job's MinRuntime is that same
// protection. Resources and LastCheckpoint are the requeue pass's
// (costData), NotBefore the cooldown of a job a due pass requeued.
//
// The pending jobs the planner sees are the first job of each bucket
// (team queue, priority, shape) and the holders, in queue order: a job
// behind another of its bucket waits for a reservation as it waits for a
// node. Their Queued is when they started waiting (-reserve-after counts
// from it, as under reserve-naive).
type tenureReserve struct {
	s       *sim
	in      reserve.Input
	names   []string // node index -> name in the Input
	owner   []int32  // per node: index in held, or -1 (the last plan)
	held    []reserve.Reservation
	heldIDs []int32
	holder  map[int32]bool
	masked  []int32         // the reserved nodes, ascending
	protect []time.Duration // per leaf: the longest min-runtime protection
	model   simModel
	inPass  bool // in Cycle.Reserve: its due passes place holders (passFit)

	notBefore map[int32]time.Time // cooldowns of jobs a due pass requeued
	replans   map[string]int      // per holder, the re-plans last seen
	recs      map[string]string
	ids       []int32
	req       reserve.Request
	openBuf   []int32
	dev       []devShare
	per       []nodeShare
	counts    map[string]int // the report's note
	idleSkips int            // cycles whose Plan was skipped as idle
}

// devShare is the job a GPU counts for while a node's units are
// computed, and that job's release instant.
type devShare struct {
	job int32
	rel int64
}

// nodeShare is one job's GPUs on the node being computed.
type nodeShare struct {
	job   int32
	units int64
}

func newTenureReserve() *tenureReserve {
	return &tenureReserve{holder: map[int32]bool{}, notBefore: map[int32]time.Time{}, replans: map[string]int{},
		recs: map[string]string{}, counts: map[string]int{}}
}

// attach sets up the run's nodes and the per-queue protections.
func (t *tenureReserve) attach(s *sim) {
	t.s = s
	t.model = simModel{s: s, ids: map[string]int32{}, placed: map[int32]bool{}}
	t.names = make([]string, len(s.c.Nodes))
	t.owner = make([]int32, len(s.c.Nodes))
	t.in.Nodes = make([]reserve.Node, len(s.c.Nodes))
	for n := range s.c.Nodes {
		t.names[n] = strconv.Itoa(n)
		t.owner[n] = -1
		t.in.Nodes[n] = reserve.Node{Name: t.names[n], Capacity: int64(s.c.Nodes[n].GPUs)}
	}
	t.protect = make([]time.Duration, len(s.env.leafIDs))
	for i, leaf := range s.env.leafIDs {
		probe := eligibility.Job{ID: "probe", Queue: leaf, Preemptible: true, Running: true, Start: s.nowT}
		for k, by := range s.env.leafIDs {
			d := s.pol.cyc.CheckVictim(policies.Action(k == i), by, &probe)
			if !d.Allowed && !d.Until.IsZero() {
				t.protect[i] = max(t.protect[i], d.Until.Sub(s.nowT))
			}
		}
	}
}

// plan is the cycle's Cycle.Reserve and what follows from it. While no
// reservation is held and no pending job qualifies (idle), the Plan would
// hold nothing, release nothing and run no pass: the cycle skips it, and
// the O(running jobs) it costs to build its input, and sleeps until the
// next job reaches -reserve-after, the Wake the Plan would return.
func (t *tenureReserve) plan() {
	s := t.s
	if len(t.heldIDs) == 0 && !PlanEveryCycle {
		if next, idle := t.idle(); idle {
			t.idleSkips++
			if next > s.now {
				s.wakeAt(next)
			}
			return
		}
	}
	t.build()
	t.inPass = true
	res, err := s.pol.cyc.Reserve(t.in, t.records(), &t.model)
	t.inPass = false
	if err != nil {
		panic(fmt.Sprintf("simulate: internal error: reservation pass: %v", err))
	}
	for i := range res.Passes {
		t.applyPass(&res.Due[i], &res.Passes[i])
	}
	t.startPlaced()
	t.setHeld(res.Held)
	t.tally(&res)
	if !res.Wake.IsZero() {
		s.wakeAt(secCeil(res.Wake))
	}
}

// PlanEveryCycle turns off plan's idle shortcut: every cycle calls
// Cycle.Reserve (an ablation; the tests compare both).
var PlanEveryCycle = false

// idle reports whether no pending job the Plan would see qualifies for a
// reservation now (requeue/reserve's rule: Max above 0, Tasks × Units at
// least MinUnits, waited After), and the instant, in seconds, at which the
// first of them that will qualify reaches After (0: none). O(buckets).
func (t *tenureReserve) idle() (next int64, idle bool) {
	s := t.s
	set := &s.env.settings
	if set.Reservations <= 0 {
		return 0, true
	}
	after := int64(set.ReserveAfter / time.Second) // whole seconds (validated)
	for _, b := range s.q.nonEmpty {
		id := s.q.head(b)
		j := &s.jobs[id]
		if j.GPUs <= 0 || int64(j.Tasks)*int64(j.GPUs) < int64(set.ReserveMinGPUs) {
			continue
		}
		q := s.st[id].pendingSince + after
		if q <= s.now {
			return 0, false
		}
		if next == 0 || q < next {
			next = q
		}
	}
	return next, true
}

// build fills t.in's running and pending jobs, and the model's names.
func (t *tenureReserve) build() {
	s := t.s
	clear(t.model.ids)
	t.in.Running = t.in.Running[:0]
	for n := range s.c.Nodes {
		t.nodeJobs(n)
	}
	t.ids = t.ids[:0]
	for _, b := range s.q.nonEmpty {
		t.ids = append(t.ids, s.q.head(b))
	}
	for _, id := range t.heldIDs {
		if s.st[id].status == statusPending {
			t.ids = append(t.ids, id)
		}
	}
	slices.SortFunc(t.ids, s.queueCompare)
	t.ids = slices.Compact(t.ids)
	t.in.Pending = t.in.Pending[:0]
	for _, id := range t.ids {
		if s.jobs[id].GPUs > 0 {
			t.in.Pending = append(t.in.Pending, *t.request(id))
			t.model.ids[s.jobs[id].Name] = id
		}
	}
}

// fits is the run's reserve.Config.Fits: whether one task of pending
// request r fits node, empty (cluster.State.EmptyFits: CPU, memory,
// GPUs), so that the planner holds for a job only nodes that could run
// it. A request or node the simulator does not know fits nowhere (fail
// closed). O(1).
func (t *tenureReserve) fits(r *reserve.Request, node string) bool {
	s := t.s
	if s == nil {
		return false
	}
	id, ok := t.model.ids[r.ID]
	n, err := strconv.Atoi(node)
	if !ok || err != nil || n < 0 || n >= len(s.c.Nodes) {
		return false
	}
	return s.c.EmptyFits(n, &s.jobs[id])
}

// nodeJobs appends node n's running jobs to t.in.Running, each with the
// GPUs it holds there (see tenureReserve for shared GPUs).
func (t *tenureReserve) nodeJobs(n int) {
	s := t.s
	gpus := len(s.c.Free[n].GPU)
	t.dev = slices.Grow(t.dev[:0], gpus)[:gpus]
	for g := range t.dev {
		t.dev[g] = devShare{job: -1}
	}
	t.per = t.per[:0]
	for _, ref := range s.c.Running[n] {
		id := ref.Job
		if !slices.ContainsFunc(t.per, func(p nodeShare) bool { return p.job == id }) {
			t.per = append(t.per, nodeShare{job: id})
		}
		rel := t.releaseAt(id)
		for _, g := range s.taskGPUs(id, int(ref.Task)) {
			if d := &t.dev[g]; d.job < 0 || rel > d.rel || rel == d.rel && id < d.job {
				d.job, d.rel = id, rel
			}
		}
	}
	for _, d := range t.dev {
		if d.job >= 0 {
			t.per[slices.IndexFunc(t.per, func(p nodeShare) bool { return p.job == d.job })].units++
		}
	}
	for _, p := range t.per {
		t.in.Running = append(t.in.Running, t.job(p.job, n, p.units))
	}
}

// releaseAt is when the planner counts running job id gone for sure, in
// seconds (math.MaxInt64: never, without an expected runtime): only the
// order among a GPU's sharers matters.
func (t *tenureReserve) releaseAt(id int32) int64 {
	s := t.s
	leaf := s.env.leafIndex(&s.jobs[id])
	exp := s.env.leafExpected[leaf]
	if exp <= 0 {
		return math.MaxInt64
	}
	return s.st[id].start + int64(max(exp, t.protect[leaf])/time.Second)
}

// job is running job id's share of node n, units GPUs, as the planner
// and the requeue pass see it.
func (t *tenureReserve) job(id int32, n int, units int64) reserve.Job {
	s := t.s
	j, st := &s.jobs[id], &s.st[id]
	leaf := s.env.leafIndex(j)
	jb := reserve.Job{Node: t.names[n], Units: units}
	jb.Victim = requeue.Victim{ID: j.Name, Priority: j.Priority(), Queue: s.env.leaf(j), Start: at(st.start),
		Expected: s.env.leafExpected[leaf], NotBefore: t.notBefore[id]}
	s.costData(&jb.Victim, id)
	if p := t.protect[leaf]; p > 0 {
		jb.ProtectedUntil = at(st.start).Add(p)
	}
	t.model.ids[j.Name] = id
	return jb
}

// request is pending job id as a reserve.Request, in scratch space valid
// until the next call.
func (t *tenureReserve) request(id int32) *reserve.Request {
	s := t.s
	j := &s.jobs[id]
	leaf := s.env.leafIndex(j)
	t.req = reserve.Request{Contender: requeue.Contender{ID: j.Name, Priority: j.Priority(), Queue: s.env.leaf(j),
		Queued: at(s.st[id].pendingSince)}, Tasks: int(j.Tasks), Units: int64(j.GPUs),
		Expected: s.env.leafExpected[leaf], MinRuntime: t.protect[leaf]}
	return &t.req
}

// records returns the running jobs' eviction records (-eviction-budget),
// by name; nil without a budget.
func (t *tenureReserve) records() map[string]string {
	s := t.s
	if !s.guards.budget {
		return nil
	}
	clear(t.recs)
	for i := range t.in.Running {
		id := t.model.ids[t.in.Running[i].ID]
		if rec := s.guards.evRecord(id); rec != "" {
			t.recs[t.in.Running[i].ID] = rec
		}
	}
	return t.recs
}
