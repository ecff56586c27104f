package sim

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/eligibility/timebased"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/policies"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/report"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"
)

// policy is one compared variant in one run: its library side
// (policies.Policy: a tenure.Policy and the candidate rule) and the
// simulator's per-run mechanisms it switches on. The simulator owns time,
// placement and bookkeeping; every decision is the library's, made
// through the cycle cyc:
//
//   - which running jobs a pending job may evict, and in which order:
//     timebased.Config.Classify and timebased.Compare
//     (LowerPriority for every policy but timebased, which uses
//     LowerOrNewerEqualPriority with a minAdmitDuration);
//   - whether min-runtime protects a victim: tenure.Cycle.CheckVictim, and
//     for elastic victims how many tasks may go: Cycle.ValidateScenario;
//   - the expected-runtime requeue: the Policy's nominator and
//     Cycle.Requeue (requeue.go);
//   - after a failed start: backoff.State.Timeout and State.RequeueAt
//     (backoff.go);
//   - the order of pending jobs, and the re-stamp of a job preempted by an
//     equal-priority one: backoff.QueueOrder.
type policy struct {
	*policies.Policy
	// cyc is the scheduling cycle at the simulator's current instant,
	// begun anew (tenure.Policy.BeginAt) whenever time moves.
	cyc *tenure.Cycle
	rq  *requeuePass
	bo  *readinessBackoff
	tr  *tenureReserve

	// The current preemptor's request (setPreemptor).
	req timebased.Request
	// Time-based picks by candidate class, for the notes.
	picks map[string]int
}

// attach is called once the simulation exists.
func (p *policy) attach(s *sim) {
	p.cyc = p.Tenure.BeginAt(s.nowT)
	if p.rq != nil {
		p.rq.attach(s)
	}
	if p.tr != nil {
		p.tr.attach(s)
	}
}

// mayPreempt is a cheap check that job id could have any candidate at all.
func (p *policy) mayPreempt(s *sim, id int32) bool {
	j := &s.jobs[id]
	for v := trace.Class(0); v < j.Class; v++ {
		if s.runningN[v] > 0 {
			return true
		}
	}
	return (p.Equal || j.High) && s.runningN[j.Class] > 0
}

// setPreemptor prepares the library request describing pending job id.
func (p *policy) setPreemptor(s *sim, id int32) {
	p.req = p.Request(s.jobs[id].Priority(), at(s.st[id].queueTS))
}

// decide asks the library whether running job v may be evicted for the
// current preemptor pre now: the candidate decision (which also orders
// the candidates), whether the min-runtime filter left an elastic victim
// to the scenario validator, and, when not allowed, the instant the
// answer may change (0: only other events can change it).
func (p *policy) decide(s *sim, pre, v int32) (d timebased.Decision, ok, deferred bool, until int64) {
	vj, vst := &s.jobs[v], &s.st[v]
	same := s.env.sameQueue(pre, v)
	if trace.RankedApart(same, p.req.Priority, vj.Priority()) {
		return d, false, false, 0 // not a candidate at all
	}
	cand := timebased.Candidate{ID: vj.Name, Priority: vj.Priority(), Reserved: at(vst.start), Queued: at(vst.queueTS)}
	if d = p.Classify(p.cyc, p.req, cand); !d.Allowed {
		return d, false, false, secCeil(d.Until)
	}
	if ok, u := s.budgetAllows(v); !ok {
		return d, false, false, u
	}
	if !p.MinRuntime {
		return d, true, false, 0
	}
	ok, deferred, u := p.MayEvict(p.cyc, same, s.env.leaf(&s.jobs[pre]), s.ejob(v))
	return d, ok, deferred, secCeil(u)
}

// scenarioAllowed asks the library (policies.Policy.MayShrink) whether pre
// may take n tasks of elastic job v: refused while v is protected and
// would fall below its minimum. Without min-runtime nothing is protected.
func (p *policy) scenarioAllowed(s *sim, pre, v int32, n int32) bool {
	if !p.MinRuntime {
		return true
	}
	ps := &s.pre
	for int32(len(ps.tasks)) < n {
		ps.tasks = append(ps.tasks, minruntime.Task{Active: true})
	}
	ps.scen[0] = minruntime.Victim{Job: s.ejob(v), Tasks: ps.tasks[:n]}
	ok, until, err := p.MayShrink(p.cyc, s.env.sameQueue(pre, v), s.env.leaf(&s.jobs[pre]), ps.scen[:])
	if err != nil {
		panic(fmt.Sprintf("simulate: internal error: scenario validator: %v", err))
	}
	if !ok {
		if u := secCeil(until); u > s.now && (ps.wake == 0 || u < ps.wake) {
			ps.wake = u
		}
	}
	s.m.scenario(ok)
	return ok
}

// noteEviction counts the time-based policy's picks by candidate class and
// re-stamps an equal-priority victim's queue-order timestamp with the
// preemption instant (policies.Restamp), so that it queues behind its
// preemptor instead of taking the slot straight back. It reports whether
// the library classed the pick as expired (time-based).
func (p *policy) noteEviction(s *sim, pre, v int32) (expired bool) {
	if !p.Equal || s.jobs[pre].Priority() != s.jobs[v].Priority() {
		return false
	}
	d, _, _, _ := p.decide(s, pre, v)
	if p.picks == nil {
		p.picks = map[string]int{}
	}
	p.picks[string(d.Reason)]++ // the class's label
	j := &s.jobs[v]
	ts := policies.Restamp(j.Name, j.Priority(), at(j.Arrival), s.nowT)
	s.setQueueTS(v, int64(ts.Sub(simEpoch)/time.Second))
	return d.Reason == "expired"
}

func (p *policy) started(s *sim, id int32) {
	if p.rq != nil {
		p.rq.started(s, id)
	}
	if p.tr != nil {
		p.tr.started(id)
	}
}

func (p *policy) stopped(s *sim, id int32) {
	if p.rq != nil {
		p.rq.stopped(s, id)
	}
}

// newPolicy builds the named policy for workload w: its library side from
// the workload's tenure.Config, and the mechanisms it switches on.
func newPolicy(name string, w *Workload) (*policy, error) {
	cfg := w.Env.tenureCfg
	var tr *tenureReserve
	if mech, _ := policies.Mechanisms(name); mech.Reservation {
		// The planner learns from the run's node model which nodes a
		// job could use at all (tenureReserve.fits); policies.New keeps
		// Fits when it sets the reservation's configuration.
		tr = newTenureReserve()
		cfg.Reservation.Fits = tr.fits
	}
	pp, err := policies.New(name, cfg, w.Env.settings)
	if err != nil {
		return nil, err
	}
	// Jobs carry the queue IDs of the workload's tree (Env.leafIDs): the
	// run's tenure.Policy, built from the same configuration, must agree.
	for i, id := range w.Env.leafIDs {
		if got, err := pp.Tenure.QueueID(w.Env.leafName(i)); err != nil || got != id {
			return nil, fmt.Errorf("simulate: internal error: queue %s has ID %v in the run's policy, %v in the workload (%v)", w.Env.leafName(i), got, id, err)
		}
	}
	p := &policy{Policy: pp}
	if pp.Requeue {
		p.rq = newRequeuePass()
	}
	if pp.Backoff {
		p.bo = newBackoff(len(w.Jobs), w.Seed)
	}
	if pp.Reservation {
		p.tr = tr
	}
	return p, nil
}

// notes returns the policy's tallies as structured notes.
func (p *policy) notes(s *sim) []report.Note {
	var out []report.Note
	if p.rq != nil && len(p.rq.outcomes) > 0 {
		out = append(out, report.Note{Kind: "requeue_outcomes", Policy: p.Name,
			Text: "the engine's, over the run, by kind/reason, one per nominated job per pass", Counts: p.rq.outcomes})
	}
	if len(p.picks) > 0 {
		out = append(out, report.Note{Kind: "time_based_picks", Policy: p.Name,
			Text: "equal-priority evictions by candidate class", Counts: p.picks})
	}
	if p.Reserve {
		out = append(out, report.Note{Kind: "reservations", Policy: p.Name, Counts: map[string]int{"granted": s.m.reservations}})
	}
	if p.tr != nil {
		out = append(out, report.Note{Kind: "reservations", Policy: p.Name,
			Text: "tenure's, over the run: taken, re-planned, released by reason, due passes and their outcomes, jobs backfilled", Counts: p.tr.counts})
	}
	if m := s.m; m.searchesCapped > 0 {
		out = append(out, report.Note{Kind: "preemption_search_capped", Policy: p.Name,
			Text:   fmt.Sprintf("searches for a node to preempt on that stopped after examining %d candidate nodes (others may have worked)", preemptNodeLimit),
			Counts: map[string]int{"capped": m.searchesCapped, "searches": m.searches}})
	}
	if m := s.m; m.scenarioOK+m.scenarioNo > 0 {
		out = append(out, report.Note{Kind: "scenario_validator", Policy: p.Name,
			Text:   "elastic-victim scenarios decided by minruntime.Validator",
			Counts: map[string]int{"allowed": m.scenarioOK, "refused": m.scenarioNo}})
	}
	return out
}
