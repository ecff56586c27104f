package sim

import (
	"strings"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/jobsout"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"
)

// recorder keeps the per-job events of one run for -jobs-out: every
// arrival, start (with its nodes and its wait since it last queued),
// eviction (cause, preemptor, lost work), shrink (what the job runs on
// after it) and completion, and at the end
// the feasible jobs still waiting or running with their wait so far.
// A nil recorder records nothing; it costs one pointer test per event.
type recorder struct {
	policy string
	nodes  []trace.Node
	events []jobsout.Event
	names  []string // scratch for node lists
}

var causeNames = [numCauses]string{causePreempt: "preempt", causeReclaim: "reclaim", causeTimeBased: "time_based", causeRequeue: "requeue"}

func (r *recorder) add(e jobsout.Event) {
	e.Policy = r.policy
	r.events = append(r.events, e)
}

// nodeList names the distinct nodes job id's tasks run on, joined by "+".
func (r *recorder) nodeList(s *sim, id int32) string {
	r.names = r.names[:0]
	for _, n := range s.st[id].nodes {
		if n < 0 {
			continue
		}
		name := r.nodes[n].Name
		if len(r.names) == 0 || r.names[len(r.names)-1] != name {
			r.names = append(r.names, name)
		}
	}
	return strings.Join(r.names, "+")
}

func (r *recorder) arrived(s *sim, id int32) {
	if r == nil {
		return
	}
	j := &s.jobs[id]
	r.add(jobsout.Event{Kind: jobsout.Arrive, Time: s.now, Job: int(id), Name: j.Name, Class: j.Class.String(),
		Queue: s.env.leafName(int(s.env.leafIndex(j))), Tasks: j.Tasks, GPUMilli: j.GPUDemand(), Work: j.Runtime})
}

func (r *recorder) started(s *sim, id int32) {
	if r == nil {
		return
	}
	st := &s.st[id]
	r.add(jobsout.Event{Kind: jobsout.Start, Time: s.now, Job: int(id), Tasks: st.active,
		GPUMilli: int64(st.active) * s.jobs[id].TaskGPU(), Node: r.nodeList(s, id), Wait: s.now - st.pendingSince})
}

// evicted records job victim's eviction (before its tasks are unbooked):
// by is the job it made room for (-1: none), lost the GPU milli-seconds
// of work thrown away.
func (r *recorder) evicted(s *sim, victim, by int32, cause string, lost int64) {
	if r == nil {
		return
	}
	e := jobsout.Event{Kind: jobsout.Evict, Time: s.now, Job: int(victim), Node: r.nodeList(s, victim),
		Work: s.now - s.st[victim].start, Cause: cause, LostMilliS: float64(lost)}
	if by >= 0 {
		e.Preemptor = s.jobs[by].Name
	}
	r.add(e)
}

// shrunk records that running elastic job id lost tasks to job by (after
// its tasks are unbooked): what it runs on from now.
func (r *recorder) shrunk(s *sim, id, by int32) {
	if r == nil {
		return
	}
	st := &s.st[id]
	r.add(jobsout.Event{Kind: jobsout.Shrink, Time: s.now, Job: int(id), Tasks: st.active,
		GPUMilli: int64(st.active) * s.jobs[id].TaskGPU(), Node: r.nodeList(s, id), Preemptor: s.jobs[by].Name})
}

func (r *recorder) finished(s *sim, id int32) {
	if r == nil {
		return
	}
	r.add(jobsout.Event{Kind: jobsout.Finish, Time: s.now, Job: int(id), Node: r.nodeList(s, id), Work: s.now - s.st[id].start})
}

// atEnd records a feasible job unfinished at the end: running or waiting,
// with its wait so far (the report's censored wait).
func (r *recorder) atEnd(s *sim, id int32, wait int64) {
	if r == nil {
		return
	}
	k := jobsout.Waiting
	if s.st[id].status == statusRunning {
		k = jobsout.Running
	}
	r.add(jobsout.Event{Kind: k, Time: s.now, Job: int(id), Node: r.nodeList(s, id), Wait: wait})
}
