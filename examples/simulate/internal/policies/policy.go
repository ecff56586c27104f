package policies

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/eligibility/timebased"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/requeue/backoff"
	"github.com/tenurepolicy/tenure/runtime"
)

// Policy is one compared variant: a tenure.Policy built from the run's
// TenureConfig (min-runtime filter, scenario validator, nominator, requeue
// engine, backoff), the candidate rule for preemption, and which of the
// simulator's mechanisms the variant switches on.
//
// A Policy is built per simulation: its tenure.Policy keeps per-run state
// (the validator's scratch, the engine), so parallel runs never share one.
type Policy struct {
	Name   string
	Tenure *tenure.Policy
	// Preemption is the candidate rule, the tenure.Config.Preemption the
	// Policy is built with (New sets it): LowerPriority, or KEP-8522's
	// LowerOrNewerEqualPriority for the time-based policy. Equal says
	// whether it ever allows a victim of the preemptor's own priority,
	// NoNewer whether its "newer" rule is off (see Settings.NoNewer).
	Preemption timebased.Config
	Equal      bool
	NoNewer    bool
	// MinRuntime: victims must pass the min-runtime filter, elastic ones
	// the scenario validator. Requeue, Reserve and Backoff switch on the
	// expected-runtime requeue pass, the simulator's head-of-line reservations and the
	// readiness backoff; Reservation tenure's reservations
	// (tenure.Config.Reservation, see ReservationConfig).
	MinRuntime, Requeue, Reserve, Backoff, Reservation bool
}

// Spec is one entry of Registry: a policy's name, what it adds, and
// whether it needs an input with failed starts.
type Spec struct {
	Name              string
	About             string
	build             func(*Policy, Settings)
	NeedsFailedStarts bool
}

// Registry lists the compared variants in report order.
var Registry = []Spec{
	{"priority", "plain priority preemption (timebased.Config LowerPriority, timebased.Compare)", func(*Policy, Settings) {}, false},
	{"minruntime", "priority + min-runtime protection (minruntime.Filter, minruntime.Validator)", func(p *Policy, _ Settings) {
		p.MinRuntime = true
	}, false},
	{"requeue", "minruntime + expected-runtime requeue (expectedruntime.Nominator, requeue.Engine, cooldown)", func(p *Policy, _ Settings) {
		p.MinRuntime, p.Requeue = true, true
	}, false},
	{"timebased", "minruntime + time-based same-priority preemption (timebased.Config, minAdmitDuration)", func(p *Policy, set Settings) {
		p.MinRuntime = true
		p.Preemption = TimeBasedConfig(set)
		p.Equal = true
		p.NoNewer = set.NoNewer
	}, false},
	{"reserve-naive", "minruntime + the simulator's own head-of-line reservation for jobs waiting longer than -reserve-after", func(p *Policy, _ Settings) {
		p.MinRuntime, p.Reserve = true, true
	}, false},
	{"reserve", "minruntime + tenure's reservations: planned start, backfill, requeue of overstayers (requeue/reserve: Cycle.Reserve, Cycle.Backfill)", func(p *Policy, _ Settings) {
		p.MinRuntime, p.Reservation = true, true
	}, false},
	{"backoff", "minruntime + requeue backoff after failed starts (backoff.Config, backoff.State, backoff.QueueOrder)", func(p *Policy, _ Settings) {
		p.MinRuntime, p.Backoff = true, true
	}, true},
}

// Mechanisms returns what the named policy switches on: New's Policy
// without its tenure.Policy, built with zero Settings (Equal says whether
// it uses the time-based candidate rule). ok is false for an unknown name.
// The simulator uses it to tell which settings a run's policies read.
func Mechanisms(name string) (p Policy, ok bool) {
	for _, r := range Registry {
		if r.Name == name {
			p = Policy{Name: name}
			r.build(&p, Settings{})
			return p, true
		}
	}
	return Policy{}, false
}

// TimeBasedConfig is the time-based policy's configuration for settings.
func TimeBasedConfig(set Settings) timebased.Config {
	m := set.MinAdmit
	return timebased.Config{Policy: timebased.LowerOrNewerEqualPriority, MinAdmitDuration: &m}
}

// New builds the named policy from the run's configuration cfg (see
// TenureConfig) and settings. A reservation policy keeps
// cfg.Reservation.Fits, the embedder's node model (the rest of
// cfg.Reservation comes from settings: ReservationConfig).
func New(name string, cfg tenure.Config, set Settings) (*Policy, error) {
	for _, r := range Registry {
		if r.Name != name {
			continue
		}
		p := &Policy{Name: name, Preemption: timebased.Config{Policy: timebased.LowerPriority}}
		r.build(p, set)
		cfg.Preemption = p.Preemption
		if p.Reservation {
			fits := cfg.Reservation.Fits
			cfg.Reservation = ReservationConfig(set)
			cfg.Reservation.Fits = fits
		}
		tp, err := tenure.New(cfg)
		if err != nil {
			return nil, fmt.Errorf("simulate: policy %s: %w", name, err)
		}
		p.Tenure = tp
		return p, nil
	}
	return nil, fmt.Errorf("simulate: unknown policy %q", name)
}

// Request is the library's description of a pending job about to look for
// victims: its priority and, unless the "newer" rule is off, its
// queue-order timestamp (with no timestamp the library counts no
// candidate as newer).
func (p *Policy) Request(priority int32, queued time.Time) timebased.Request {
	req := timebased.Request{Priority: priority}
	if !p.NoNewer {
		req.Timestamp = queued
	}
	return req
}

// Action is the kind of eviction: preempt within one team queue, reclaim
// across queues (KAI-Scheduler's terms).
func Action(sameQueue bool) runtime.Action {
	if sameQueue {
		return runtime.ActionPreempt
	}
	return runtime.ActionReclaim
}

// A running job may be evicted for a pending one when both steps allow
// it, in this order: the candidate rule (Classify, which also orders the
// candidates) and, with min-runtime on, the job's protection
// (MayEvict). The simulator builds the job's eligibility.Job only when
// the first step allows.

// Classify applies the candidate rule (Config.Preemption) through cycle c
// (tenure.Cycle.Classify) to candidate cand of the pending job described
// by req, so that the cycle's Wake counts the decision's Until (a
// time-based candidate's minAdmitDuration expiry).
func (p *Policy) Classify(c *tenure.Cycle, req timebased.Request, cand timebased.Candidate) timebased.Decision {
	return c.Classify(req, cand)
}

// MayEvict asks Cycle.CheckVictim whether running job v may be evicted by
// a job of team queue pre (in v's team queue: a preempt; else a reclaim).
// It reports whether v may go, whether the filter left an elastic victim
// to the scenario validator (MayShrink), and, when not allowed, the
// instant the answer may change. Without min-runtime every job may go.
func (p *Policy) MayEvict(c *tenure.Cycle, sameQueue bool, pre queuetree.ID, v *eligibility.Job) (ok, deferred bool, until time.Time) {
	if !p.MinRuntime {
		return true, false, time.Time{}
	}
	d := c.CheckVictim(Action(sameQueue), pre, v)
	if !d.Allowed {
		return false, false, d.Until
	}
	return true, d.Reason == minruntime.ReasonElasticDeferred, time.Time{}
}

// MayShrink asks Cycle.ValidateScenario whether the pending job in team
// queue pre may take the given tasks of an elastic victim: refused while
// the victim is protected and would fall below its minimum, until the
// instant named. Without min-runtime nothing is protected. The error is
// the validator's (bad scenario data), which the simulator never produces.
func (p *Policy) MayShrink(c *tenure.Cycle, sameQueue bool, pre queuetree.ID, scen []minruntime.Victim) (ok bool, until time.Time, err error) {
	if !p.MinRuntime {
		return true, time.Time{}, nil
	}
	d, err := c.ValidateScenario(Action(sameQueue), pre, scen)
	return d.Allowed, d.Until, err
}

// Restamp is the queue-order timestamp of a job that a job of its own
// priority preempted at now (backoff.QueueEntry.SamePriorityPreempted), so
// that it queues behind its preemptor instead of taking the slot straight
// back.
func Restamp(name string, priority int32, created, now time.Time) time.Time {
	return backoff.QueueOrder{}.Timestamp(backoff.QueueEntry{ID: name, Priority: priority, Created: created, SamePriorityPreempted: now})
}
