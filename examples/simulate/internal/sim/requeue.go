package sim

import (
	"fmt"
	"slices"
	"time"

	"github.com/tenurepolicy/tenure"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/cluster"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/evictionbudget"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/requeue"
)

// requeuePass is the expected-runtime requeue (KAI-Scheduler's
// expectedruntime plugin, PR #941, and the Requeue action it feeds). It runs
// after a cycle's allocation and preemption, with the jobs those left
// pending as contenders, as the design describes: a job past its expected
// runtime is evicted only when that lets a contender run that could not run
// otherwise. tenure's expectedruntime.Nominator nominates the running jobs past
// their expected runtime (and not in a cooldown), and requeue.Engine
// virtually evicts them, one at a time, to place the contenders, committing
// or rolling back. The simulator only supplies the data (jobs with
// annotations, victims, contenders) and the Model.
//
// Jobs opt in through the expected-runtime annotation, which the simulator
// derives from the job's team queue (the nearest -expected-runtime setting
// on the path up). A committed victim gets the engine's not-before
// annotation (cooldown -requeue-delay).
//
// Cost. The nominator's Until says when a running job's outcome can change
// (its expected runtime, a cooldown end), so each job is evaluated when it
// starts and again at that instant, not every cycle; a nominated job stays
// nominated while it runs and is re-evaluated every pass. Contenders are
// the first job of each (queue, shape) group left pending: a later job of
// the group cannot fit where the first did not.
type requeuePass struct {
	s *sim

	timers timerHeap
	// The nominated set: jobs, their nominations, and each job's index.
	nominated []int32
	nomData   []expectedruntime.Nomination
	nomPos    map[int32]int
	conts     []requeue.Contender
	// A pass's snapshot of the nominated set.
	passIDs  []int32
	passNoms []expectedruntime.Nomination
	// How many tasks of each contender fit as things are, by cluster
	// version.
	anywhere map[int32]fitCache
	// Shape keys for requeue.Shaper, one string per shape.
	shapeKeys map[shape]string
	// ann holds the annotations of jobs requeued at least once (their
	// not-before); others carry their leaf's.
	ann map[int32]map[string]string

	recs      map[string]string // eviction records (records)
	contIDs   map[string]int32
	contBkt   map[int32]int32
	model     simModel
	outcomes  map[string]int
	committed int
}

func newRequeuePass() *requeuePass {
	return &requeuePass{nomPos: map[int32]int{}, ann: map[int32]map[string]string{}, anywhere: map[int32]fitCache{}, shapeKeys: map[shape]string{},
		contIDs: map[string]int32{}, contBkt: map[int32]int32{}, outcomes: map[string]int{}, recs: map[string]string{}}
}

func (r *requeuePass) attach(s *sim) {
	r.s = s
	r.model = simModel{s: s, ids: map[string]int32{}, placed: map[int32]bool{}}
}

// annotations returns job id's annotations.
func (r *requeuePass) annotations(id int32) map[string]string {
	if a, ok := r.ann[id]; ok {
		return a
	}
	return r.s.env.leafAnn[r.s.env.leafIndex(&r.s.jobs[id])]
}

// ejob is sim.ejob with the job's annotations.
func (r *requeuePass) ejob(id int32) eligibility.Job {
	j := *r.s.ejob(id)
	j.Subgroups = nil // not read by the nominator
	j.Annotations = r.annotations(id)
	return j
}

// evaluate asks the nominator about running job id now: a nominated job
// joins the nominated set, a skipped or not yet eligible one is looked at
// again at the instant the decision names.
func (r *requeuePass) evaluate(id int32) {
	s := r.s
	ej := r.ejob(id)
	o := s.pol.cyc.Nominate(&ej)
	switch {
	case o.Allowed:
		if _, ok := r.nomPos[id]; !ok {
			r.nomPos[id] = len(r.nominated)
			r.nominated = append(r.nominated, id)
			r.nomData = append(r.nomData, o.Nomination)
		}
	case !o.Skip.Until.IsZero():
		r.timers.push(timer{t: secCeil(o.Skip.Until), job: id, run: s.st[id].runs})
	}
}

// started evaluates a job that just started, if its queue opted in.
func (r *requeuePass) started(_ *sim, id int32) {
	if r.annotations(id) != nil {
		r.evaluate(id)
	}
}

// stopped drops a job that stopped running from the nominated set.
func (r *requeuePass) stopped(_ *sim, id int32) {
	i, ok := r.nomPos[id]
	if !ok {
		return
	}
	last := len(r.nominated) - 1
	r.nominated[i], r.nomData[i] = r.nominated[last], r.nomData[last]
	r.nomPos[r.nominated[i]] = i
	r.nominated, r.nomData = r.nominated[:last], r.nomData[:last]
	delete(r.nomPos, id)
}

// run performs one requeue pass at s.now, with the first job of each bucket
// left pending by the cycle as contenders and every nominated job as a
// victim: the engine serves a contender by a set of victims (a whole
// node's for a whole-node job, several nodes' for a gang), so it must see
// them all at once.
func (r *requeuePass) run(s *sim) {
	r.fireTimers(s)
	if len(r.nominated) == 0 || !r.gatherContenders(s) {
		return
	}
	// A snapshot of the nominated set: commits remove jobs from the set.
	r.passIDs = append(r.passIDs[:0], r.nominated...)
	r.passNoms = append(r.passNoms[:0], r.nomData...)
	for i := range r.passNoms {
		r.model.ids[r.passNoms[i].ID] = r.passIDs[i]
	}
	r.runNoms()
}

// fireTimers re-evaluates the jobs whose outcome may have changed by now.
// A nominated job needs no new look: its decision's Until is zero (time
// alone never changes it), and only its stopping (stopped) or a new
// annotation (a requeue, which stops it) can.
func (r *requeuePass) fireTimers(s *sim) {
	for len(r.timers) > 0 && r.timers[0].t <= s.now {
		tm := r.timers.pop()
		if st := &s.st[tm.job]; st.status == statusRunning && st.runs == tm.run {
			r.evaluate(tm.job)
		}
	}
	if len(r.timers) > 0 {
		s.wakeAt(r.timers[0].t) // contenders are waiting: look again then
	}
}

// gatherContenders collects the pass's contenders: the head of each bucket
// the cycle left pending that fits nowhere as things are. It reports
// whether there is any.
func (r *requeuePass) gatherContenders(s *sim) bool {
	clear(r.contIDs)
	clear(r.contBkt)
	clear(r.model.ids)
	r.conts = r.conts[:0]
	for _, b := range s.left {
		id := s.q.head(b)
		j := &s.jobs[id]
		if j.Tasks == 1 && s.fitFor(id) >= 0 {
			// Room freed later in the cycle (by a preemption that freed more
			// than it needed): the next cycle places it. The engine assumes
			// its contenders fit nowhere as things are.
			continue
		}
		r.conts = append(r.conts, requeue.Contender{ID: j.Name, Priority: j.Priority(),
			Queue: s.env.leaf(j), Queued: at(s.st[id].queueTS)})
		r.contIDs[j.Name] = id
		r.contBkt[id] = b
		r.model.ids[j.Name] = id
	}
	return len(r.conts) > 0
}

// runNoms runs the engine over the pass's nominations and the waiting
// contenders and applies its decisions.
func (r *requeuePass) runNoms() {
	s := r.s
	for i := range r.passNoms {
		r.s.costData(&r.passNoms[i].Victim, r.passIDs[i])
	}
	var m requeue.Model = &r.model
	if !NoModelHints {
		m = &hintedModel{&r.model}
	}
	// The nominations are the pass's own (evaluate asks Cycle.Nominate one
	// job at a time), so Running is empty: Cycle.Requeue runs the engine
	// over them and the contenders.
	out, err := s.pol.cyc.Requeue(tenure.RequeueInput{Contenders: r.conts, Nominated: r.passNoms,
		EvictionRecords: r.records()}, m)
	res := out.Engine
	if err != nil {
		panic(fmt.Sprintf("simulate: internal error: requeue engine: %v", err))
	}
	if n := len(res.ContenderProblems); n > 0 {
		panic(fmt.Sprintf("simulate: internal error: requeue model refused %d contenders: %v", n, res.ContenderProblems[0].Err))
	}
	clear(r.model.placed)
	for _, o := range res.Outcomes {
		k := o.Kind.String()
		if o.Kind != requeue.OutcomeCommitted {
			k += "/" + string(o.Reason)
		}
		r.outcomes[k]++
		switch o.Kind {
		case requeue.OutcomeCommitted:
			r.commit(o)
		case requeue.OutcomeSkipped:
			if o.Reason == evictionbudget.ReasonExhausted {
				s.budgetHold(r.model.ids[o.Job], secCeil(o.Until))
			}
			if !o.Until.IsZero() {
				s.wakeAt(secCeil(o.Until))
			}
		}
	}
	for job, rec := range out.EvictionRecords {
		s.guards.jobs[r.model.ids[job]].evRecord = rec
	}
	// Contenders the engine placed in room a commit left, evicting no one
	// for them, start too.
	for _, ff := range res.FitWithoutEviction {
		id := r.model.ids[ff.Job]
		s.q.removeHead(r.contBkt[id])
		s.book(id)
	}
}

// records returns the eviction records of the pass's nominated jobs that
// have one (-eviction-budget), by job name; nil without a budget.
func (r *requeuePass) records() map[string]string {
	if !r.s.guards.budget {
		return nil
	}
	clear(r.recs)
	for _, id := range r.passIDs {
		if rec := r.s.guards.evRecord(id); rec != "" {
			r.recs[r.s.jobs[id].Name] = rec
		}
	}
	return r.recs
}

// costData gives victim v (running job id) what the engine's cost rule
// (requeue.EngineConfig.VictimCost) weighs: Resources, the GPUs it holds (a
// CPU-only job counts as one thousandth of a GPU, the simulator's smallest
// GPU share, rather than the engine's "unknown", which would be one GPU),
// and LastCheckpoint, the instant of its last checkpoint under -checkpoint
// or its last shrink (zero when it has had neither since it started: the
// lost work then counts from its start), so that the cost is exactly the GPU time an
// eviction now would lose (sim.lostIfEvicted).
func (s *sim) costData(v *requeue.Victim, id int32) {
	gpus := float64(int64(s.st[id].active)*s.jobs[id].TaskGPU()) / 1000
	v.Resources = max(gpus, 0.001)
	// What an eviction keeps: the work up to the last checkpoint, or up to
	// a shrink (which keeps its progress, as a checkpoint would).
	v.LastCheckpoint = time.Time{}
	if saved := s.now - s.unsaved(id); saved > s.st[id].start {
		v.LastCheckpoint = at(saved)
	}
}

// fitsNow returns how many tasks of contender id fit as things are (at
// most its tasks), cached while the cluster is unchanged.
func (r *requeuePass) fitsNow(id int32) int32 {
	s := r.s
	e := r.anywhere[id]
	if e.version != s.c.Version {
		e = fitCache{version: s.c.Version, tasks: s.fitCount(id, s.jobs[id].Tasks)}
		r.anywhere[id] = e
	}
	return e.tasks
}

// NoModelHints turns the model's hints to the engine (requeue.Shaper,
// requeue.FitBounder) off: every placement attempted (tests check that the
// pass decides the same).
var NoModelHints = false

// fitsIfEvicted reports whether contender cid could be placed, all its
// tasks, if running job vid were evicted now. Model.Place puts identical
// tasks first fit, so it places them all exactly when the cluster can hold
// that many: the tasks that fit as things are (fitsNow) plus what freeing
// vid's tasks adds on its nodes. It reads the model's current state.
func (r *requeuePass) fitsIfEvicted(vid, cid int32) bool {
	s := r.s
	cj := &s.jobs[cid]
	st := &s.st[vid]
	need := cj.Tasks
	gain := int32(0)
	f := &s.c.Scratch
	for t, n := range st.nodes {
		if n < 0 || slices.Index(st.nodes[:t], n) >= 0 {
			continue // not running, or a node already looked at
		}
		if !s.nodeUsable(int(n), cid) {
			continue
		}
		f.CopyFrom(&s.c.Free[n])
		for u, m := range st.nodes[t:] {
			if m == n {
				f.Give(&s.jobs[vid], s.taskGPUs(vid, t+u))
			}
		}
		after := capacity(f, cj, need)
		if need == 1 {
			if after > 0 {
				return true
			}
			continue // it may fit elsewhere: see below
		}
		f.CopyFrom(&s.c.Free[n])
		gain += after - capacity(f, cj, need)
	}
	return r.fitsNow(cid)+gain >= need
}

// capacity returns how many tasks of j fit into f, at most max; f is
// used up.
func capacity(f *cluster.NodeFree, j *trace.Job, max int32) int32 {
	k := int32(0)
	var gpus [64]uint8
	for k < max && f.Fits(j) {
		f.Take(j, gpus[:0])
		k++
	}
	return k
}

type fitCache struct {
	version uint64
	tasks   int32
}

// commit applies a committed outcome: the victim (already freed by the
// model) is evicted and gets its not-before annotation; its contender
// (already placed) starts, once for the whole set: every victim of a set
// names the same contender.
func (r *requeuePass) commit(o requeue.Outcome) {
	s := r.s
	v := r.model.ids[o.Job]
	by := r.model.ids[o.Contenders[0]]
	s.evictFreed(v, by, causeRequeue)
	r.committed++
	ann := map[string]string{eligibility.AnnotationRequeueNotBefore: o.Annotation}
	for k, val := range s.env.leafAnn[s.env.leafIndex(&s.jobs[v])] {
		ann[k] = val
	}
	r.ann[v] = ann
	for _, c := range o.Contenders {
		id := r.model.ids[c]
		if s.st[id].status != statusPending {
			continue // started by an earlier victim of its set
		}
		s.q.removeHead(r.contBkt[id])
		s.book(id)
	}
}

// timer asks for a job's re-evaluation at t, if it is still in run run.
type timer struct {
	t   int64
	job int32
	run int32
}

type timerHeap []timer

// timerBefore orders timers by instant, then job.
func timerBefore(a, b timer) bool { return a.t < b.t || a.t == b.t && a.job < b.job }

func (h *timerHeap) push(x timer) {
	*h = append(*h, x)
	siftUp(*h, len(*h)-1, timerBefore)
}

func (h *timerHeap) pop() timer {
	top, rest := popMin(*h, timerBefore)
	*h = rest
	return top
}
