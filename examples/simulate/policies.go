package main

import (
	"github.com/tenurepolicy/tenure/eligibility"
)

// tenurePolicy is plain priority preemption with tenure's policies switched
// on. Every decision is the library's: the simulator only turns its own state
// into the library's plain values (eligibility.Job, requeue.Victim, ...) and
// acts on the answers, using each decision's Until to schedule a wake-up
// cycle instead of polling.
type tenurePolicy struct {
	e *env
	// minRuntime: victims are checked with eligibility.MinRuntimeFilter
	// (preempt within a leaf queue, reclaim across queues, LCA method).
	minRuntime bool
	filter     eligibility.MinRuntimeFilter

	// rq, when set, runs the expected-runtime requeue pass before each cycle.
	rq *requeuePass

	// bo, when set, applies requeue backoff after failed starts.
	bo *backoff

	// ej mirrors every job as the library sees it; Start and Running are
	// kept current by started and stopped.
	ej []eligibility.Job
}

func newTenurePolicy(w *workload) *tenurePolicy {
	p := &tenurePolicy{e: w.env, filter: eligibility.MinRuntimeFilter{Resolver: w.env.resolver}}
	p.ej = make([]eligibility.Job, len(w.jobs))
	for i := range w.jobs {
		j := &w.jobs[i]
		p.ej[i] = eligibility.Job{
			ID:          j.Name,
			Queue:       w.env.leaf(j),
			Priority:    j.Class.Priority(),
			Preemptible: true,
			Subgroups:   []eligibility.Subgroup{{MinAvailable: 1, Active: 1}},
		}
	}
	return p
}

func (p *tenurePolicy) beforeCycle(s *sim) {
	if p.rq != nil && len(s.pending) > 0 {
		p.rq.run(s, p.ej)
	}
}
func (p *tenurePolicy) admissible(s *sim, id int32) bool {
	if p.bo == nil {
		return true
	}
	return p.bo.admissible(s, id)
}

func (p *tenurePolicy) timedOut(s *sim, id int32) bool {
	if p.bo == nil {
		return false // retried at once, keeping its place
	}
	return p.bo.timedOut(s, id)
}

func (p *tenurePolicy) started(s *sim, id int32) {
	p.ej[id].Start = at(s.now)
	p.ej[id].Running = true
}

func (p *tenurePolicy) stopped(_ *sim, id int32) {
	p.ej[id].Running = false
}

func (p *tenurePolicy) mayPreempt(s *sim, id int32) bool { return s.lowerRunning(id) }

func (p *tenurePolicy) candidate(s *sim, pre, v int32) (bool, int64) {
	if s.jobs[v].Class >= s.jobs[pre].Class {
		return false, 0
	}
	if p.minRuntime {
		d := p.filter.Check(p.e.action(pre, v), p.e.leaf(&s.jobs[pre]), &p.ej[v], at(s.now))
		if !d.Allowed {
			return false, secCeil(d.Until)
		}
	}
	return true, 0
}

func (p *tenurePolicy) victimOrder(s *sim, _, a, b int32) int { return youngestLowestFirst(s, a, b) }
