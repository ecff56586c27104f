package tenure_test

import (
	"testing"
	"time"

	"github.com/tenurepolicy/tenure"
	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/admitprotect"
	"github.com/tenurepolicy/tenure/eligibility/evictionbudget"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/eligibility/timebased"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/backoff"
	"github.com/tenurepolicy/tenure/runtime"
)

// endsOfTime is one cycle of TestEveryPolicyAtTheEndsOfTime: the Policy,
// the cycle's instant and what its decisions said.
type endsOfTime struct {
	t      *testing.T
	p      *tenure.Policy
	q      eligibility.Job // a template victim in the policy's one queue
	now    time.Time
	c      *tenure.Cycle
	untils []time.Time // every Until after now, for Wake
}

// ask makes one decision through the cycle and checks it: its Until is
// zero or after now (an Until at or before now is a denial nobody wakes
// for); at clock.Last(), where nothing is protected, it is zero; asked
// again in a cycle at its Until, the answer is no longer the same.
func (e *endsOfTime) ask(what string, at time.Time, do func(c *tenure.Cycle) eligibility.Decision) {
	e.t.Helper()
	d := do(e.c)
	switch {
	case d.Until.IsZero():
		return
	case !d.Until.After(e.now):
		e.t.Errorf("now %v, %s at %v: %v, an Until not after now", e.now, what, at, d)
		return
	}
	e.untils = append(e.untils, d.Until)
	again := do(e.p.BeginAt(d.Until))
	if again.Allowed == d.Allowed && again.Reason == d.Reason {
		e.t.Errorf("now %v, %s at %v: %v, and the same at its Until: %v", e.now, what, at, d, again)
	}
}

// victim returns the template victim started at start, elastic or not.
func (e *endsOfTime) victim(start time.Time, elastic bool) *eligibility.Job {
	j := e.q
	j.Start = start
	j.Annotations = map[string]string{expectedruntime.AnnotationExpectedRuntime: "30m",
		evictionbudget.Annotation: eligibility.FormatNotBefore(start)}
	j.Subgroups = []eligibility.Subgroup{{MinAvailable: 2, Active: 2}}
	if elastic {
		j.Subgroups[0].MinAvailable = 1
	}
	return &j
}

// eligibilityPolicies asks every eligibility policy about inputs at at.
func (e *endsOfTime) eligibilityPolicies(at time.Time) {
	for _, a := range []runtime.Action{runtime.ActionPreempt, runtime.ActionReclaim} {
		for _, elastic := range []bool{false, true} {
			e.ask("CheckVictim", at, func(c *tenure.Cycle) eligibility.Decision {
				return c.CheckVictim(a, e.q.Queue, e.victim(at, elastic)).Decision
			})
			e.ask("ValidateScenario", at, func(c *tenure.Cycle) eligibility.Decision {
				v := []minruntime.Victim{{Job: e.victim(at, elastic), Tasks: []minruntime.Task{{ID: "a", Active: true}}}}
				d, err := c.ValidateScenario(a, e.q.Queue, v)
				if err != nil {
					e.t.Errorf("ValidateScenario at %v: %v", at, err)
				}
				return d.Decision
			})
		}
	}
	e.ask("Nominate", at, func(c *tenure.Cycle) eligibility.Decision { return c.Nominate(e.victim(at, false)).Decision })
	e.ask("Classify", at, func(c *tenure.Cycle) eligibility.Decision {
		return c.Classify(timebased.Request{Priority: 1, Timestamp: at}, timebased.Candidate{ID: "c", Priority: 1, Reserved: at, Queued: at}).Decision
	})
	for _, k := range []admitprotect.Kind{admitprotect.InCohortFairSharing, admitprotect.InCohortReclamation, admitprotect.Kind(99)} {
		e.ask("CheckAdmitted", at, func(c *tenure.Cycle) eligibility.Decision { return c.CheckAdmitted(k, at, false) })
	}
	e.ask("CheckPreemptor", at, func(c *tenure.Cycle) eligibility.Decision { return c.CheckPreemptor(&requeue.Contender{Queued: at}) })
	e.ask("CheckEvictionBudget", at, func(c *tenure.Cycle) eligibility.Decision { return c.CheckEvictionBudget(e.victim(at, false)) })
	// The record of an eviction now, on top of one at at, read back.
	key, rec := e.c.RecordEviction(e.victim(at, false))
	evicted := e.victim(at, false)
	evicted.Annotations[key] = rec
	e.ask("RecordEviction", at, func(c *tenure.Cycle) eligibility.Decision { return c.CheckEvictionBudget(evicted) })
}

// requeuePolicies checks the requeue side at at: the engine pass (its
// outcomes' Untils and the cycle's Wake), backoff's RequeueAt and the
// queue order's re-stamp, and runtime.ProtectedUntil.
func (e *endsOfTime) requeuePolicies(at time.Time, strategy backoff.Strategy) {
	res, err := e.c.Requeue(tenure.RequeueInput{Running: []eligibility.Job{*e.victim(at, false)},
		Contenders: []requeue.Contender{{ID: "hi", Priority: 9, Queue: e.q.Queue, Queued: at}}}, protectedCluster(e.t))
	if err != nil {
		e.t.Errorf("now %v, Requeue at %v: %v", e.now, at, err)
	}
	untils := []time.Time{res.Nominated.Wake, res.Engine.Wake}
	for _, o := range res.Engine.Outcomes {
		untils = append(untils, o.Until)
	}
	for _, u := range untils {
		if !u.IsZero() && !u.After(e.now) {
			e.t.Errorf("now %v, Requeue at %v: an Until %v not after now", e.now, at, u)
		} else if !u.IsZero() {
			e.untils = append(e.untils, u)
		}
	}
	for _, u := range []float64{0, 0.5, 0.999} {
		next, _ := backoff.State{Count: 3, RequeueAt: at}.Timeout(strategy.Backoff, e.now, u)
		if next.RequeueAt.Before(e.now) || next.RequeueAt.Before(at) {
			e.t.Errorf("now %v, RequeueAt %v, draw %v: Timeout set RequeueAt %v, before now or the old one", e.now, at, u, next.RequeueAt)
		}
	}
	o := backoff.QueueOrder{RestampReclaimPreempted: true}
	if ts := o.Timestamp(backoff.QueueEntry{ID: "x", Created: at, ReclaimPreempted: at}); !at.IsZero() && ts.Before(at) {
		e.t.Errorf("now %v: the re-stamp of %v is %v, before it", e.now, at, ts)
	}
	if u := runtime.ProtectedUntil(at, time.Hour); !at.IsZero() && u.Before(at) {
		e.t.Errorf("ProtectedUntil(%v, 1h) = %v, before the start", at, u)
	}
}

// TestEveryPolicyAtTheEndsOfTime sweeps every policy, decided at
// clock.Last() and at the zero time, over inputs at, just before and just
// after now (saturating), the zero time and clock.Last(): no panic, every
// Until is after now and is where the answer changes, the cycle's Wake is
// the earliest of them, backoff never requeues before now, and at
// clock.Last() nothing is protected: no decision has an Until.
func TestEveryPolicyAtTheEndsOfTime(t *testing.T) {
	cfg := allPolicies()
	cfg.Queues = []tenure.Queue{{Name: "q", PreemptMinRuntime: "1h", ReclaimMinRuntime: "1h"}}
	cfg.Requeuing = backoff.Strategy{Backoff: backoff.Config{Base: time.Minute, Jitter: 0.81}}
	p, err := tenure.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	q, err := p.QueueID("q")
	if err != nil {
		t.Fatal(err)
	}
	for _, now := range []time.Time{clock.Last(), {}} {
		e := &endsOfTime{t: t, p: p, now: now, c: p.BeginAt(now),
			q: eligibility.Job{ID: "v", Queue: q, Priority: 1, Preemptible: true, Running: true}}
		for _, at := range []time.Time{{}, clock.Last(), now, now.Add(-time.Nanosecond), now.Add(-time.Second / 2),
			now.Add(-45 * time.Minute), now.Add(-10 * time.Hour), clock.AddSaturating(now, time.Nanosecond), clock.AddSaturating(now, time.Hour)} {
			e.eligibilityPolicies(at)
			e.requeuePolicies(at, cfg.Requeuing)
		}
		if want := eligibility.Earliest(e.untils...); !e.c.Wake().Equal(want) {
			t.Errorf("now %v: Wake = %v, want the earliest Until %v", now, e.c.Wake(), want)
		}
		if now.Equal(clock.Last()) && len(e.untils) > 0 {
			t.Errorf("at clock.Last(): %d decisions with an Until (%v), want none", len(e.untils), e.untils)
		}
	}
}
