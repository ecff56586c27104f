package main

import (
	"fmt"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/requeue"
)

// requeuePass is the expected-runtime requeue (KAI-Scheduler's
// expectedruntime plugin, PR #941, and the Requeue action it feeds). It runs
// after a cycle's allocation and preemption, with the jobs those left
// pending as contenders, as the design describes: a job past its expected
// runtime is evicted only when that lets a contender run that could not run
// otherwise. tenure's eligibility.Nominator nominates the running jobs past
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
	nom eligibility.Nominator
	eng *requeue.Engine
	s   *sim

	timers    timerHeap
	nominated []int32
	nomPos    map[int32]int
	// ann holds the annotations of jobs requeued at least once (their
	// not-before); others carry their leaf's.
	ann map[int32]map[string]string

	eval      []int32
	noms      []eligibility.Nomination
	in        requeue.EngineInput
	contIDs   map[string]int32
	contBkt   map[int32]int32
	model     simModel
	outcomes  map[string]int
	committed int
}

func newRequeuePass(w *workload, filter *eligibility.MinRuntimeFilter) (*requeuePass, error) {
	r := &requeuePass{nomPos: map[int32]int{}, ann: map[int32]map[string]string{},
		contIDs: map[string]int32{}, contBkt: map[int32]int32{}, outcomes: map[string]int{}}
	cfg := requeue.EngineConfig{DefaultDelay: w.env.settings.RequeueDelay,
		Filters: []requeue.VictimFilter{requeue.VictimMinRuntimeFilter{Filter: filter}}}
	if w.env.settings.RequeueEqual {
		cfg.CanContend = func(v *requeue.Victim, c *requeue.Contender) bool { return c.Priority >= v.Priority }
	}
	var err error
	r.eng, err = requeue.NewEngine(cfg)
	return r, err
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
// joins the nominated set (and the pass's nominations when collect), a
// skipped or not yet eligible one is looked at again at the instant the
// decision names.
func (r *requeuePass) evaluate(id int32, collect bool) {
	s := r.s
	ej := r.ejob(id)
	o := r.nom.Evaluate(&ej, s.nowT)
	switch {
	case o.Allowed:
		if _, ok := r.nomPos[id]; !ok {
			r.nomPos[id] = len(r.nominated)
			r.nominated = append(r.nominated, id)
		}
		if collect {
			r.noms = append(r.noms, o.Nomination)
			r.model.ids[o.Nomination.Job] = id
		}
	case !o.Skip.Until.IsZero():
		r.timers.push(timer{t: secCeil(o.Skip.Until), job: id, run: s.st[id].runs})
	}
}

// started evaluates a job that just started, if its queue opted in.
func (r *requeuePass) started(_ *sim, id int32) {
	if r.annotations(id) != nil {
		r.evaluate(id, false)
	}
}

// stopped drops a job that stopped running from the nominated set.
func (r *requeuePass) stopped(_ *sim, id int32) {
	i, ok := r.nomPos[id]
	if !ok {
		return
	}
	last := r.nominated[len(r.nominated)-1]
	r.nominated[i] = last
	r.nomPos[last] = i
	r.nominated = r.nominated[:len(r.nominated)-1]
	delete(r.nomPos, id)
}

// run performs one requeue pass at s.now, with the first job of each bucket
// left pending by the cycle as contenders.
func (r *requeuePass) run(s *sim) {
	// Jobs whose outcome may have changed, and the nominated ones.
	r.eval = r.eval[:0]
	for len(r.timers) > 0 && r.timers[0].t <= s.now {
		tm := r.timers.pop()
		if st := &s.st[tm.job]; st.status == statusRunning && st.runs == tm.run {
			r.eval = append(r.eval, tm.job)
		}
	}
	r.eval = append(r.eval, r.nominated...)
	r.noms = r.noms[:0]
	clear(r.model.ids)
	for _, id := range r.eval {
		if _, ok := r.nomPos[id]; ok {
			r.stopped(s, id) // re-added by evaluate if still nominated
		}
		r.evaluate(id, true)
	}
	if len(r.timers) > 0 {
		s.wakeAt(r.timers[0].t) // contenders are waiting: look again then
	}
	if len(r.noms) == 0 {
		return
	}
	clear(r.contIDs)
	clear(r.contBkt)
	r.in.Nominations, r.in.Victims, r.in.Contenders = r.in.Nominations[:0], r.in.Victims[:0], r.in.Contenders[:0]
	for _, b := range s.left {
		id := s.q.head(b)
		j := &s.jobs[id]
		r.in.Contenders = append(r.in.Contenders, requeue.Contender{ID: j.Name, Priority: j.Class.Priority(),
			Queue: s.env.leaf(j), Queued: at(s.st[id].queueTS)})
		r.contIDs[j.Name] = id
		r.contBkt[id] = b
	}
	r.in.AddNominations(r.noms)
	for name, id := range r.contIDs {
		r.model.ids[name] = id
	}
	res, err := r.eng.Run(s.nowT, r.in, &r.model)
	if err != nil {
		panic(fmt.Sprintf("simulate: internal error: requeue engine: %v", err))
	}
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
			if !o.Until.IsZero() {
				s.wakeAt(secCeil(o.Until))
			}
		case requeue.OutcomeDeferred:
			s.wakeAt(s.now + 1)
		}
	}
	if n := len(res.ContenderErrors); n > 0 {
		panic(fmt.Sprintf("simulate: internal error: requeue model refused %d contenders: %v", n, res.ContenderErrors[0].Err))
	}
	clear(r.model.placed)
}

// commit applies a committed outcome: the victim (already freed by the
// model) is evicted and gets its not-before annotation; the contenders
// (already placed) start.
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

func (h *timerHeap) push(x timer) {
	*h = append(*h, x)
	a := *h
	for i := len(a) - 1; i > 0; {
		p := (i - 1) / 2
		if a[p].t < a[i].t || a[p].t == a[i].t && a[p].job <= a[i].job {
			break
		}
		a[i], a[p] = a[p], a[i]
		i = p
	}
}

func (h *timerHeap) pop() timer {
	a := *h
	top := a[0]
	last := len(a) - 1
	a[0] = a[last]
	a = a[:last]
	for i := 0; ; {
		l := 2*i + 1
		if l >= len(a) {
			break
		}
		m := l
		if r := l + 1; r < len(a) && (a[r].t < a[l].t || a[r].t == a[l].t && a[r].job < a[l].job) {
			m = r
		}
		if a[i].t < a[m].t || a[i].t == a[m].t && a[i].job <= a[m].job {
			break
		}
		a[i], a[m] = a[m], a[i]
		i = m
	}
	*h = a
	return top
}

// simModel is the simulator's requeue.Model: it evicts and places jobs on
// the cluster's free resources, recording an undo step for each change.
// Contenders are placed as sim.placeFit would, reservations included.
type simModel struct {
	s      *sim
	ids    map[string]int32
	placed map[int32]bool // contenders placed this pass
}

// Evict frees a running job's resources (virtually: the job's bookkeeping
// is updated only if the engine commits).
func (m *simModel) Evict(j *requeue.Journal, job string) error {
	id, ok := m.ids[job]
	if !ok {
		return fmt.Errorf("simulate: unknown job %q", job)
	}
	s := m.s
	if s.st[id].status != statusRunning {
		return fmt.Errorf("simulate: job %q is not running", job)
	}
	s.giveAll(id)
	j.Record(func() {
		st := &s.st[id]
		for t, n := range st.nodes {
			if n >= 0 {
				s.c.takeExact(int(n), &s.jobs[id], s.taskGPUs(id, t))
			}
		}
	})
	return nil
}

// Place puts a pending job's tasks where they fit, first fit, as a whole.
func (m *simModel) Place(j *requeue.Journal, job string) (bool, error) {
	id, ok := m.ids[job]
	if !ok {
		return false, fmt.Errorf("simulate: unknown job %q", job)
	}
	s := m.s
	if s.st[id].status != statusPending || m.placed[id] {
		return false, fmt.Errorf("simulate: job %q is not pending", job)
	}
	jb := &s.jobs[id]
	st := &s.st[id]
	s.prepareTasks(id)
	for t := range jb.Tasks {
		n := s.fitFor(id)
		if n < 0 {
			for u := t - 1; u >= 0; u-- {
				s.c.give(int(st.nodes[u]), jb, s.taskGPUs(id, int(u)))
				st.nodes[u] = -1
			}
			return false, nil
		}
		s.takeTask(id, int(t), n)
	}
	m.placed[id] = true
	j.Record(func() {
		for t, n := range st.nodes {
			if n >= 0 {
				s.c.give(int(n), jb, s.taskGPUs(id, t))
				st.nodes[t] = -1
			}
		}
		delete(m.placed, id)
	})
	return true, nil
}
