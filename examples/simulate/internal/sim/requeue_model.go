package sim

import (
	"fmt"

	"github.com/tenurepolicy/tenure/requeue"
)

// The requeue pass's requeue.Model over the simulator's cluster, with the
// engine's optional hints. Why the simulator does not use the library's
// reference model (requeue/cluster.Model): its GPUs are shared in
// thousandths per device (a task asks for g devices with m thousandths
// free on each; a task of a fractional share must fit on one device), a
// shape the reference model's resource vectors cannot state, and its
// placement (first node, best-fit device) must be the one its preemption
// and allocation use.

// hintedModel is simModel with the engine's optional hints: Shape
// (requeue.Shaper: pending jobs of one shape place alike, except a job
// holding a reservation) and MayFit (requeue.FitBounder: the exact fit
// test of fitsIfEvicted, which answers false only when Place would).
type hintedModel struct{ *simModel }

// The hinted model offers both hints; the plain one (NoModelHints) only
// the two methods of requeue.Model.
var (
	_ requeue.Shaper        = (*hintedModel)(nil)
	_ requeue.FitBounder    = (*hintedModel)(nil)
	_ requeue.Model         = (*simModel)(nil)
	_ requeue.JournalUndoer = (*simModel)(nil)
)

// Shape implements requeue.Shaper.
func (m *hintedModel) Shape(job string) (string, bool) {
	id, ok := m.ids[job]
	if !ok || m.s.st[id].status != statusPending || m.s.resv.mine(id) != nil {
		return "", false
	}
	sh := shapeOf(&m.s.jobs[id])
	r := m.s.pol.rq
	key, ok := r.shapeKeys[sh]
	if !ok {
		key = fmt.Sprintf("%d/%d/%d/%d/%d", sh.cpu, sh.mem, sh.gpus, sh.milli, sh.tasks)
		r.shapeKeys[sh] = key
	}
	return key, true
}

// MayFit implements requeue.FitBounder.
func (m *hintedModel) MayFit(victim string, jobs []string, fits []bool) {
	r := m.s.pol.rq
	vid, vok := m.ids[victim]
	for i, job := range jobs {
		cid, ok := m.ids[job]
		switch {
		case !ok || (victim != "" && !vok):
			fits[i] = true
		case victim == "":
			fits[i] = r.fitsNow(cid) >= m.s.jobs[cid].Tasks
		default:
			fits[i] = r.fitsIfEvicted(vid, cid)
		}
	}
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
	j.RecordUndoer(m, undoEvict, int64(id))
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
	if !s.fitTasks(id) {
		return false, nil
	}
	m.placed[id] = true
	j.RecordUndoer(m, undoPlace, int64(id))
	return true, nil
}

// The model's undo steps (requeue.JournalUndoer: recorded without
// allocating, which a closure per eviction would).
const (
	undoEvict = iota // take an evicted job's resources back
	undoPlace        // free a placed contender's tasks
)

// Undo implements requeue.JournalUndoer: step kind for job id.
func (m *simModel) Undo(kind, id int64) {
	s := m.s
	jb, st := &s.jobs[id], &s.st[id]
	for t, n := range st.nodes {
		if n < 0 {
			continue
		}
		if kind == undoEvict {
			s.c.TakeExact(int(n), jb, s.taskGPUs(int32(id), t))
			continue
		}
		s.c.Give(int(n), jb, s.taskGPUs(int32(id), t))
		st.nodes[t] = -1
	}
	if kind == undoPlace {
		delete(m.placed, int32(id))
	}
}
