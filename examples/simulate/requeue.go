package main

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/runtime"
)

// requeuePass is the expected-runtime requeue, run at the start of every
// cycle that has pending jobs: tenure's eligibility.Nominator nominates the
// running jobs that have exceeded their expected runtime (and are not in a
// cooldown), and requeue.Engine virtually evicts them, one at a time, to place
// pending contenders, committing or rolling back. The simulator only supplies
// the data (jobs with annotations, victims, contenders) and the Model.
//
// Jobs opt in through the expected-runtime annotation, which the simulator
// derives from the job's team queue: the -expected-runtime setting of the
// nearest queue on the path from the team up to its class. A committed victim
// gets the engine's not-before annotation (cooldown -requeue-delay) on its
// own copy of the annotations.
type requeuePass struct {
	nom     eligibility.Nominator
	eng     *requeue.Engine
	leafAnn []map[string]string // by leaf index; nil when the queue did not opt in
	model   simModel

	res     eligibility.Result
	running []eligibility.Job
	noms    []requeue.VictimNomination
	victims []requeue.Victim
	conts   []requeue.Contender
	fits    map[shape]bool
}

func newRequeuePass(w *workload, filter *eligibility.MinRuntimeFilter, ej []eligibility.Job) (*requeuePass, error) {
	e := w.env
	r := &requeuePass{fits: map[shape]bool{}}
	r.model = simModel{ids: make(map[string]int32, len(w.jobs)), placed: map[int32][]uint8{}, placedOn: map[int32]int{}, evicted: map[int32]bool{}}
	for i := range w.jobs {
		r.model.ids[w.jobs[i].Name] = int32(i)
	}
	// Expected runtime per leaf: the nearest setting on the leaf's path up.
	set := map[queuetree.ID]time.Duration{}
	for _, q := range e.settings.Expected {
		id, _ := e.tree.Lookup(q.Queue)
		set[id] = q.D
	}
	r.leafAnn = make([]map[string]string, len(e.leafIDs))
	for i, leaf := range e.leafIDs {
		for q := range e.tree.Ancestors(leaf) {
			if d, ok := set[q]; ok {
				if d > 0 {
					r.leafAnn[i] = map[string]string{eligibility.AnnotationExpectedRuntime: runtime.FormatDuration(d)}
				}
				break
			}
		}
	}
	for i := range ej {
		ej[i].Annotations = r.leafAnn[e.leafIndex(&w.jobs[i])]
	}
	var filters []requeue.VictimFilter
	if filter != nil {
		filters = append(filters, requeue.VictimMinRuntimeFilter{Filter: filter})
	}
	var err error
	cfg := requeue.EngineConfig{DefaultDelay: e.settings.RequeueDelay, Filters: filters}
	if e.settings.RequeueEqual {
		cfg.CanContend = func(v *requeue.Victim, c *requeue.Contender) bool { return c.Priority >= v.Priority }
	}
	r.eng, err = requeue.NewEngine(cfg)
	return r, err
}

// run performs one requeue pass at s.now.
func (r *requeuePass) run(s *sim, ej []eligibility.Job) {
	now := s.nowT
	// Contenders: pending jobs that cannot be placed without an eviction.
	clear(r.fits)
	r.conts = r.conts[:0]
	for _, id := range s.pending {
		if s.st[id].status != statusPending || !s.pol.admissible(s, id) {
			continue
		}
		sh := shapeOf(&s.jobs[id])
		f, ok := r.fits[sh]
		if !ok {
			f = s.c.findFit(&s.jobs[id]) >= 0
			r.fits[sh] = f
		}
		if !f {
			r.conts = append(r.conts, requeue.Contender{ID: s.jobs[id].Name, Priority: s.jobs[id].Class.Priority(),
				Queue: ej[id].Queue, Queued: at(s.st[id].queueTS)})
		}
	}
	if len(r.conts) == 0 {
		return
	}
	// Nominations: every running job, in node order.
	r.running = r.running[:0]
	for n := range s.c.running {
		for _, id := range s.c.running[n] {
			r.running = append(r.running, ej[id])
		}
	}
	r.res.Reset()
	r.nom.AppendTo(&r.res, r.running, now)
	if !r.res.Wake.IsZero() {
		s.wakeAt(secCeil(r.res.Wake))
	}
	if len(r.res.Nominations) == 0 {
		return
	}
	in := requeue.EngineInput{Nominations: r.noms[:0], Victims: r.victims[:0], Contenders: r.conts}
	in.AddNominations(r.res.Nominations)
	r.noms, r.victims = in.Nominations, in.Victims
	r.model.s = s
	res, err := r.eng.Run(now, in, &r.model)
	if err != nil {
		panic(fmt.Sprintf("simulate: internal error: requeue engine: %v", err))
	}
	s.m.requeueOutcomes(res)
	for _, o := range res.Outcomes {
		switch o.Kind {
		case requeue.OutcomeCommitted:
			v := r.model.ids[o.Job]
			by := r.model.ids[o.Contenders[0]]
			s.evictBooked(v, by)
			ann := make(map[string]string, 2)
			for k, val := range ej[v].Annotations {
				ann[k] = val
			}
			ann[eligibility.AnnotationRequeueNotBefore] = o.Annotation
			ej[v].Annotations = ann
			for _, c := range o.Contenders {
				id := r.model.ids[c]
				s.st[id].gpus = append(s.st[id].gpus[:0], r.model.placed[id]...)
				s.book(id, r.model.placedOn[id])
			}
		case requeue.OutcomeSkipped:
			if !o.Until.IsZero() {
				s.wakeAt(secCeil(o.Until))
			}
		case requeue.OutcomeDeferred:
			s.wakeAt(s.now + 1)
		}
	}
	clear(r.model.placed)
	clear(r.model.placedOn)
	clear(r.model.evicted)
}

// simModel is the simulator's requeue.Model: it evicts and places jobs on the
// cluster's free resources, recording an undo step for each change.
type simModel struct {
	s        *sim
	ids      map[string]int32
	placed   map[int32][]uint8 // contenders placed this pass: their GPUs
	placedOn map[int32]int     // ... and node
	evicted  map[int32]bool    // victims evicted this pass
}

// Evict frees a running job's resources (virtually: the job's bookkeeping is
// updated only if the engine commits).
func (m *simModel) Evict(j *requeue.Journal, job string) error {
	id, ok := m.ids[job]
	if !ok {
		return fmt.Errorf("simulate: unknown job %q", job)
	}
	st := &m.s.st[id]
	if st.status != statusRunning || m.evicted[id] {
		return fmt.Errorf("simulate: job %q is not running", job)
	}
	f := &m.s.c.free[st.node]
	jb := &m.s.jobs[id]
	f.give(jb, st.gpus)
	m.evicted[id] = true
	j.Record(func() {
		f.takeExact(jb, st.gpus)
		delete(m.evicted, id)
	})
	return nil
}

// Place puts a pending job on the first node it fits, as a whole.
func (m *simModel) Place(j *requeue.Journal, job string) (bool, error) {
	id, ok := m.ids[job]
	if !ok {
		return false, fmt.Errorf("simulate: unknown job %q", job)
	}
	if m.s.st[id].status != statusPending {
		return false, fmt.Errorf("simulate: job %q is not pending", job)
	}
	if _, dup := m.placed[id]; dup {
		return false, fmt.Errorf("simulate: job %q already placed", job)
	}
	jb := &m.s.jobs[id]
	n := m.s.c.findFit(jb)
	if n < 0 {
		return false, nil
	}
	f := &m.s.c.free[n]
	gpus := f.take(jb, nil)
	m.placed[id] = gpus
	m.placedOn[id] = n
	j.Record(func() {
		f.give(jb, gpus)
		delete(m.placed, id)
		delete(m.placedOn, id)
	})
	return true, nil
}
