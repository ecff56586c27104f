package main

import (
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/requeue"
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

	// tb, when set, is the time-based same-priority preemption policy: a
	// pending job may also evict running jobs of its own class that
	// eligibility.PreemptionConfig.Classify finds newer or expired.
	tb *eligibility.PreemptionConfig
	// The last preemptor's request, reused across its candidates.
	reqJob int32
	reqTS  int64
	req    eligibility.PreemptionRequest

	// bo, when set, applies requeue backoff after failed starts.
	bo *backoff

	// ej mirrors every job as the library sees it; Start and Running are
	// kept current by started and stopped.
	ej []eligibility.Job
}

func newTenurePolicy(w *workload) *tenurePolicy {
	p := &tenurePolicy{e: w.env, filter: eligibility.MinRuntimeFilter{Resolver: w.env.resolver}, reqJob: -1}
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
	p.ej[id].Start = s.nowT
	p.ej[id].Running = true
}

func (p *tenurePolicy) stopped(_ *sim, id int32) {
	p.ej[id].Running = false
}

func (p *tenurePolicy) mayPreempt(s *sim, id int32) bool {
	return s.lowerRunning(id) || p.tb != nil && s.runningN[s.jobs[id].Class] > 0
}

func (p *tenurePolicy) equalPriorityVictims() bool { return p.tb != nil }

// classify asks the time-based policy about running job v as a candidate
// for pending job pre.
func (p *tenurePolicy) classify(s *sim, pre, v int32) eligibility.PreemptionDecision {
	if p.reqJob != pre || p.reqTS != s.st[pre].queueTS {
		p.reqJob, p.reqTS = pre, s.st[pre].queueTS
		p.req = eligibility.PreemptionRequest{Priority: s.jobs[pre].Class.Priority()}
		if !p.e.settings.NoNewer {
			// With no timestamp the library counts no candidate as newer.
			p.req.Timestamp = at(p.reqTS)
		}
	}
	cand := eligibility.Candidate{ID: s.jobs[v].Name, Priority: s.jobs[v].Class.Priority(), Reserved: p.ej[v].Start,
		Queued: at(s.st[v].queueTS)}
	return p.tb.Classify(p.req, cand, s.nowT)
}

func (p *tenurePolicy) candidate(s *sim, pre, v int32) (bool, int64) {
	switch cv, cp := s.jobs[v].Class, s.jobs[pre].Class; {
	case cv > cp:
		return false, 0
	case cv == cp:
		if p.tb == nil {
			return false, 0
		}
		if d := p.classify(s, pre, v); !d.Allowed {
			return false, secCeil(d.Until)
		}
	}
	if p.minRuntime {
		d := p.filter.Check(p.e.action(pre, v), p.e.leaf(&s.jobs[pre]), &p.ej[v], s.nowT)
		if !d.Allowed {
			return false, secCeil(d.Until)
		}
	}
	return true, 0
}

// noteEviction counts the time-based policy's picks by candidate class and
// re-stamps an equal-priority victim's queue-order timestamp with the
// preemption instant (requeue.QueueEntry.SamePriorityPreempted), so that it
// queues behind its preemptor instead of taking the slot straight back.
func (p *tenurePolicy) noteEviction(s *sim, pre, v int32) {
	if p.tb == nil {
		return
	}
	s.m.pick(p.classify(s, pre, v).Class.String())
	if s.jobs[v].Class == s.jobs[pre].Class {
		j := &s.jobs[v]
		ts := requeue.QueueOrder{}.Timestamp(requeue.QueueEntry{ID: j.Name, Priority: j.Class.Priority(),
			Created: at(j.Arrival), SamePriorityPreempted: s.nowT})
		s.st[v].queueTS = int64(ts.Sub(simEpoch) / time.Second)
	}
}

// victimOrder: lower classes first, youngest first within a lower class (as
// plain priority); candidates of the preemptor's own class (time-based) in
// eligibility.CandidateCompare order: expired longest-running first, then
// newer most-recent first.
func (p *tenurePolicy) victimOrder(s *sim, pre, a, b int32) int {
	if c := s.jobs[pre].Class; p.tb != nil && s.jobs[a].Class == c && s.jobs[b].Class == c {
		return eligibility.CandidateCompare(p.classify(s, pre, a), p.classify(s, pre, b))
	}
	return youngestLowestFirst(s, a, b)
}
