package sim

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/report"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/requeue/backoff"
)

// policy is one compared variant. The simulator owns time, placement and
// bookkeeping; every decision a policy takes is the library's:
//
//   - which running jobs a pending job may evict, and in which order:
//     eligibility.PreemptionConfig.Classify and eligibility.CandidateCompare
//     (LowerPriority for every policy but timebased, which uses
//     LowerOrNewerEqualPriority with a minAdmitDuration);
//   - whether min-runtime protects a victim: eligibility.MinRuntimeFilter
//     (resolved by runtime.Resolver), and for elastic victims how many tasks
//     may go: eligibility.ScenarioValidator;
//   - the expected-runtime requeue: eligibility.Nominator and requeue.Engine;
//   - after a failed start: backoff.State under backoff.Config;
//   - the order of pending jobs, and the re-stamp of a job preempted by an
//     equal-priority one: backoff.QueueOrder.
//
// A policy is built per simulation: it holds per-run state (the scenario
// validator's scratch, the requeue engine), so parallel runs never share one.
type policy struct {
	name string
	// pc classifies candidates; equal says whether it ever allows a victim
	// of the preemptor's own priority.
	pc    eligibility.PreemptionConfig
	equal bool
	// minRuntime: victims must pass filter; elastic ones the validator.
	minRuntime bool
	filter     eligibility.MinRuntimeFilter
	validator  eligibility.ScenarioValidator
	noNewer    bool
	rq         *requeuePass
	bo         *readinessBackoff
	reserve    bool

	// The current preemptor's request (setPreemptor).
	req eligibility.PreemptionRequest
	// Time-based picks by candidate class, for the notes.
	picks map[string]int
}

// attach is called once the simulation exists.
func (p *policy) attach(s *sim) {
	if p.rq != nil {
		p.rq.attach(s)
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
	return (p.equal || j.High) && s.runningN[j.Class] > 0
}

// setPreemptor prepares the library request describing pending job id.
func (p *policy) setPreemptor(s *sim, id int32) {
	p.req = eligibility.PreemptionRequest{Priority: s.jobs[id].Priority()}
	if !p.noNewer {
		// With no timestamp the library counts no candidate as newer.
		p.req.Timestamp = s.st[id].queueT
	}
}

// decide asks the library whether running job v may be evicted for the
// current preemptor pre now: the candidate decision (which also orders the
// candidates), whether the min-runtime filter left an elastic victim to
// the scenario validator, and, when not allowed, the instant the answer
// may change (0: only other events can change it).
func (p *policy) decide(s *sim, pre, v int32) (d eligibility.PreemptionDecision, ok, deferred bool, until int64) {
	vj, vst := &s.jobs[v], &s.st[v]
	if trace.RankedApart(s.env.sameQueue(pre, v), p.req.Priority, vj.Priority()) {
		return d, false, false, 0 // not a candidate at all
	}
	cand := eligibility.Candidate{ID: vj.Name, Priority: vj.Priority(), Reserved: vst.startT, Queued: vst.queueT}
	d = p.pc.Classify(p.req, cand, s.nowT)
	if !d.Allowed {
		return d, false, false, secCeil(d.Until)
	}
	if p.minRuntime {
		md := p.filter.Check(s.env.action(pre, v), s.env.leaf(&s.jobs[pre]), s.ejob(v), s.nowT)
		if !md.Allowed {
			return d, false, false, secCeil(md.Until)
		}
		deferred = md.Reason == eligibility.ReasonElasticDeferred
	}
	return d, true, deferred, 0
}

// scenarioAllowed asks eligibility.ScenarioValidator whether pre may take
// n tasks of elastic job v: refused while v is protected and would fall
// below its minimum. Without min-runtime nothing is protected.
func (p *policy) scenarioAllowed(s *sim, pre, v int32, n int32) bool {
	if !p.minRuntime {
		return true
	}
	ps := &s.pre
	for int32(len(ps.tasks)) < n {
		ps.tasks = append(ps.tasks, eligibility.ScenarioTask{Active: true})
	}
	ps.scen[0] = eligibility.ScenarioJob{Job: s.ejob(v), Tasks: ps.tasks[:n]}
	d, err := p.validator.Validate(s.env.action(pre, v), s.env.leaf(&s.jobs[pre]), ps.scen[:], s.nowT)
	if err != nil {
		panic(fmt.Sprintf("simulate: internal error: scenario validator: %v", err))
	}
	if !d.Allowed {
		if u := secCeil(d.Until); u > s.now && (ps.wake == 0 || u < ps.wake) {
			ps.wake = u
		}
	}
	s.m.scenario(d.Allowed)
	return d.Allowed
}

// noteEviction counts the time-based policy's picks by candidate class and
// re-stamps an equal-priority victim's queue-order timestamp with the
// preemption instant (backoff.QueueEntry.SamePriorityPreempted), so that it
// queues behind its preemptor instead of taking the slot straight back. It
// reports whether the library classed the pick as expired (time-based).
func (p *policy) noteEviction(s *sim, pre, v int32) (expired bool) {
	if !p.equal || s.jobs[pre].Priority() != s.jobs[v].Priority() {
		return false
	}
	d, _, _, _ := p.decide(s, pre, v)
	if p.picks == nil {
		p.picks = map[string]int{}
	}
	p.picks[d.Class.String()]++
	j := &s.jobs[v]
	ts := backoff.QueueOrder{}.Timestamp(backoff.QueueEntry{ID: j.Name, Priority: j.Priority(),
		Created: at(j.Arrival), SamePriorityPreempted: s.nowT})
	s.setQueueTS(v, int64(ts.Sub(simEpoch)/time.Second))
	return d.Class.TimeBased()
}

func (p *policy) started(s *sim, id int32) {
	if p.rq != nil {
		p.rq.started(s, id)
	}
}

func (p *policy) stopped(s *sim, id int32) {
	if p.rq != nil {
		p.rq.stopped(s, id)
	}
}

// newPolicy builds the named policy for workload w.
func newPolicy(name string, w *Workload) (*policy, error) {
	for _, r := range PolicyRegistry {
		if r.Name == name {
			p := &policy{name: name, pc: eligibility.PreemptionConfig{Policy: eligibility.PreemptionLowerPriority}}
			if err := r.build(p, w); err != nil {
				return nil, err
			}
			return p, nil
		}
	}
	return nil, fmt.Errorf("simulate: unknown policy %q", name)
}

// withMinRuntime switches min-runtime protection on.
func withMinRuntime(p *policy, w *Workload) {
	p.minRuntime = true
	p.filter = eligibility.MinRuntimeFilter{Resolver: w.Env.resolver}
	p.validator = eligibility.ScenarioValidator{Resolver: w.Env.resolver}
}

// TimeBasedConfig is the time-based policy's configuration for settings.
func TimeBasedConfig(set Settings) eligibility.PreemptionConfig {
	m := set.MinAdmit
	return eligibility.PreemptionConfig{Policy: eligibility.PreemptionLowerOrNewerEqualPriority, MinAdmitDuration: &m}
}

// PolicyRegistry lists the compared variants in report order.
var PolicyRegistry = []struct {
	Name              string
	About             string
	build             func(*policy, *Workload) error
	needsFailedStarts bool
}{
	{"priority", "plain priority preemption (eligibility.PreemptionConfig LowerPriority, CandidateCompare)", func(*policy, *Workload) error { return nil }, false},
	{"minruntime", "priority + min-runtime protection (eligibility.MinRuntimeFilter, ScenarioValidator)", func(p *policy, w *Workload) error {
		withMinRuntime(p, w)
		return nil
	}, false},
	{"requeue", "minruntime + expected-runtime requeue (eligibility.Nominator, requeue.Engine, cooldown)", func(p *policy, w *Workload) error {
		withMinRuntime(p, w)
		var err error
		p.rq, err = newRequeuePass(w, &p.filter)
		return err
	}, false},
	{"timebased", "minruntime + time-based same-priority preemption (eligibility.PreemptionConfig, minAdmitDuration)", func(p *policy, w *Workload) error {
		withMinRuntime(p, w)
		p.pc = TimeBasedConfig(w.Env.settings)
		p.equal = true
		p.noNewer = w.Env.settings.NoNewer
		return nil
	}, false},
	{"reserve", "minruntime + head-of-line reservation for jobs waiting longer than -reserve-after", func(p *policy, w *Workload) error {
		withMinRuntime(p, w)
		p.reserve = true
		return nil
	}, false},
	{"backoff", "minruntime + requeue backoff after failed starts (backoff.Config, backoff.State, backoff.QueueOrder)", func(p *policy, w *Workload) error {
		withMinRuntime(p, w)
		p.bo = newBackoff(len(w.Jobs), w.Seed)
		return nil
	}, true},
}

// notes returns the policy's tallies as structured notes.
func (p *policy) notes(s *sim) []report.Note {
	var out []report.Note
	if p.rq != nil && len(p.rq.outcomes) > 0 {
		out = append(out, report.Note{Kind: "requeue_outcomes", Policy: p.name,
			Text: "the engine's, over the run, by kind/reason, for the nominated jobs whose eviction could make room for a waiting job (the others it would keep)", Counts: p.rq.outcomes})
	}
	if len(p.picks) > 0 {
		out = append(out, report.Note{Kind: "time_based_picks", Policy: p.name,
			Text: "equal-priority evictions by candidate class", Counts: p.picks})
	}
	if p.reserve {
		out = append(out, report.Note{Kind: "reservations", Policy: p.name, Counts: map[string]int{"granted": s.m.reservations}})
	}
	if m := s.m; m.searchesCapped > 0 {
		out = append(out, report.Note{Kind: "preemption_search_capped", Policy: p.name,
			Text:   fmt.Sprintf("searches for a node to preempt on that stopped after examining %d candidate nodes (others may have worked)", preemptNodeLimit),
			Counts: map[string]int{"capped": m.searchesCapped, "searches": m.searches}})
	}
	if m := s.m; m.scenarioOK+m.scenarioNo > 0 {
		out = append(out, report.Note{Kind: "scenario_validator", Policy: p.name,
			Text:   "elastic-victim scenarios decided by eligibility.ScenarioValidator",
			Counts: map[string]int{"allowed": m.scenarioOK, "refused": m.scenarioNo}})
	}
	return out
}
