package tenure

import (
	"errors"
	"time"

	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"

	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/reserve"
)

// reservationConfig is Config.Reservation as the Policy's planner runs
// it: its requeue passes under engine (the composed engine's settings and
// filters), with Reservation.Engine's CanContend and ContendClass, and the Policy's
// Observer when it has none of its own.
func (c Config) reservationConfig(engine requeue.EngineConfig) reserve.Config {
	r := c.Reservation
	engine.CanContend, engine.ContendClass = r.Engine.CanContend, r.Engine.ContendClass
	r.Engine = engine
	if r.Observer == nil {
		r.Observer = c.Observer
	}
	if r.Logger == nil {
		r.Logger = c.Logger
	}
	return r
}

// protectedUntil is the reservation planner's Protection under p: the
// later end of the job's min-runtime protection against a preemption (its
// own queue) and a reclaim (from the root: its top-level queue's setting
// under the lca method), unless AllowProtectedRequeue; clock.Last() for a
// job the filter denies without an end (an unset or unknown queue). O(1);
// no allocation.
func (p *Policy) protectedUntil(j *reserve.Job) time.Time {
	if p.cfg.AllowProtectedRequeue {
		return time.Time{}
	}
	var until time.Time
	v := eligibility.Job{ID: j.ID, Queue: j.Queue, Start: j.Start, Running: true, Preemptible: true}
	for _, a := range []struct {
		action    runtime.Action
		preemptor queuetree.ID
	}{{runtime.ActionPreempt, j.Queue}, {runtime.ActionReclaim, queuetree.Root}} {
		d := p.filter.Check(a.action, a.preemptor, &v, j.Start)
		switch {
		case !d.Allowed && d.Until.IsZero():
			return clock.Last()
		case d.Until.After(until):
			until = d.Until
		}
	}
	return until
}

// minRuntime is the longer of the min-runtimes that would protect r once
// it runs (preempted in its own queue, reclaimed from the root). O(1).
func (p *Policy) minRuntime(r *reserve.Request) time.Duration {
	if p.cfg.AllowProtectedRequeue {
		return 0
	}
	return max(p.resolver.Resolve(runtime.ActionPreempt, r.Queue, r.Queue).Duration,
		p.resolver.Resolve(runtime.ActionReclaim, queuetree.Root, r.Queue).Duration)
}

// checkReservationEngine reports settings of Reservation.Engine other
// than CanContend and its ContendClass: the requeue pass at a planned start
// runs under Engine, and a setting given only here would be ignored.
func (c Config) checkReservationEngine() []error {
	e := c.Reservation.Engine
	if e.Name != "" || e.DefaultDelay != 0 || e.MaxVictims != 0 || e.MaxAttempts != 0 || e.MaxFillFailures != 0 ||
		e.MaxChecks != 0 || e.MaxLostWork != 0 || e.VictimCost != nil || e.Filters != nil || e.VictimOrder != nil || e.Observer != nil {
		return []error{&ConfigError{"reservation.engine", errors.New(
			"Reservation.Engine holds only CanContend: the pass at a planned start runs under Engine (set its settings and filters there)")}}
	}
	return nil
}

// checkReservation returns Config.Reservation's problems, as reserve.New
// reports them (its engine settings are Engine's, checked apart).
func (c Config) checkReservation() error {
	r := c.Reservation
	r.Engine, r.Observer = requeue.EngineConfig{}, nil
	_, err := reserve.New(r)
	return err
}
