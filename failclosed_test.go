package tenure_test

import (
	"testing"
	"time"

	"github.com/tenurepolicy/tenure"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/runtime"
)

// failClosedPolicy has one queue that protects every job for 2h, preempt
// and reclaim, and a node-pool default of 0: a job that lost its queue
// would be evictable at once, which is what fail closed prevents.
func failClosedPolicy(t *testing.T) (*tenure.Policy, queuetree.ID) {
	t.Helper()
	return teamPolicy(t, tenure.Config{})
}

// teamPolicy builds cfg with the queues "team" (2h for both actions) and
// "other", and returns it with team's ID.
func teamPolicy(t *testing.T, cfg tenure.Config) (*tenure.Policy, queuetree.ID) {
	t.Helper()
	cfg.Queues = []tenure.Queue{{Name: "team", PreemptMinRuntime: "2h", ReclaimMinRuntime: "2h"}, {Name: "other"}}
	p, err := tenure.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	team, err := p.QueueID("team")
	if err != nil {
		t.Fatal(err)
	}
	return p, team
}

// TestFailClosedCheckVictim: Cycle.CheckVictim denies a victim whose Queue
// was forgotten (the zero value) or is stale, for both actions, and a
// reclaim whose reclaimer's queue was forgotten; no Until, since waiting
// does not fix a missing field.
func TestFailClosedCheckVictim(t *testing.T) {
	p, team := failClosedPolicy(t)
	c := p.BeginAt(t0)
	cases := []struct {
		name              string
		action            runtime.Action
		preemptor, victim queuetree.ID
		want              eligibility.Reason
	}{
		{"preempt, victim unset", runtime.ActionPreempt, team, queuetree.None, minruntime.ReasonQueueUnset},
		{"reclaim, victim unset", runtime.ActionReclaim, team, queuetree.None, minruntime.ReasonQueueUnset},
		{"reclaim, reclaimer unset", runtime.ActionReclaim, queuetree.None, team, minruntime.ReasonQueueUnset},
		{"preempt, victim stale", runtime.ActionPreempt, team, 1000, minruntime.ReasonUnknownQueue},
	}
	for _, tc := range cases {
		// Long ago, in the protection window, and with no start at all.
		for _, start := range []time.Time{t0.Add(-10 * time.Minute), t0.Add(-10 * time.Hour), {}} {
			job := eligibility.Job{ID: "j", Queue: tc.victim, Start: start}
			d := c.CheckVictim(tc.action, tc.preemptor, &job)
			if d.Allowed || d.Reason != tc.want || !d.Until.IsZero() {
				t.Errorf("%s, start %v: %v; want denied %s without Until", tc.name, start, d, tc.want)
			}
		}
	}
	// The zero Job: every field forgotten.
	if d := c.CheckVictim(runtime.ActionPreempt, team, &eligibility.Job{}); d.Allowed || d.Reason != minruntime.ReasonQueueUnset {
		t.Errorf("zero Job: %v", d)
	}
	if !c.Wake().IsZero() {
		t.Errorf("Wake = %v: a fail-closed denial must not schedule a wake-up", c.Wake())
	}
}

// TestFailClosedValidateScenario: Cycle.ValidateScenario rejects a
// scenario that takes tasks from an elastic victim whose queue was
// forgotten, although in its real queue the same scenario (one of four
// tasks, MinAvailable 1) would be allowed.
func TestFailClosedValidateScenario(t *testing.T) {
	p, team := failClosedPolicy(t)
	c := p.BeginAt(t0)
	for _, q := range []queuetree.ID{team, queuetree.None} {
		job := &eligibility.Job{ID: "e", Queue: q, Start: t0.Add(-10 * time.Minute),
			Subgroups: []eligibility.Subgroup{{Name: "w", MinAvailable: 1, Active: 4}}}
		d, err := c.ValidateScenario(runtime.ActionPreempt, team,
			[]minruntime.Victim{{Job: job, Tasks: []minruntime.Task{{Subgroup: "w", Active: true}}}})
		if err != nil {
			t.Fatal(err)
		}
		if q == team && !d.Allowed {
			t.Errorf("real queue: %v, want allowed", d)
		}
		if q == queuetree.None && (d.Allowed || d.Reason != minruntime.ReasonQueueUnset || d.Job != "e") {
			t.Errorf("forgotten queue: %v, want rejected queue_unset", d)
		}
	}
}

// TestFailClosedRequeue: Cycle.Requeue, whose engine runs the min-runtime
// filter, keeps a nominated job whose queue was forgotten (skipped with
// queue_unset), where the same job in its real queue is kept by its 2h
// protection and with the queue's protection lost to the 0 default would
// be evicted. It holds for a forgotten contender queue too.
func TestFailClosedRequeue(t *testing.T) {
	p, team := failClosedPolicy(t)
	for _, tc := range []struct {
		name          string
		victim, contr queuetree.ID
		want          eligibility.Reason
	}{
		{"real queues", team, team, eligibility.ReasonMinRuntimeProtected},
		{"victim unset", queuetree.None, team, minruntime.ReasonQueueUnset},
		{"contender unset", team, queuetree.None, minruntime.ReasonQueueUnset},
		{"victim stale", 77, team, minruntime.ReasonUnknownQueue},
	} {
		c := p.BeginAt(t0)
		v := eligibility.Job{ID: "v", Queue: tc.victim, Priority: 1, Preemptible: true, Running: true, Start: t0.Add(-time.Hour),
			Annotations: map[string]string{expectedruntime.AnnotationExpectedRuntime: "30m"}}
		res, err := c.Requeue(tenure.RequeueInput{
			Running:    []eligibility.Job{v},
			Contenders: []requeue.Contender{{ID: "hi", Priority: 9, Queue: tc.contr}},
		}, protectedCluster(t))
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Engine.Outcomes) != 1 {
			t.Fatalf("%s: %d outcomes", tc.name, len(res.Engine.Outcomes))
		}
		if o := res.Engine.Outcomes[0]; o.Kind != requeue.OutcomeSkipped || o.Reason != tc.want {
			t.Errorf("%s: %v %v, want skipped %s", tc.name, o.Kind, o.Decision, tc.want)
		}
	}
}

// TestFailClosedEngineFilter: the engine's min-runtime filter on its own,
// given the zero Victim and Contender (every field forgotten), denies.
func TestFailClosedEngineFilter(t *testing.T) {
	p, team := failClosedPolicy(t)
	f := p.Filter()
	vf := requeue.VictimMinRuntimeFilter{Filter: &f}
	for _, tc := range []struct {
		name string
		v    requeue.Victim
		c    requeue.Contender
	}{
		{"zero victim and contender", requeue.Victim{}, requeue.Contender{}},
		{"zero victim", requeue.Victim{Start: t0.Add(-time.Minute)}, requeue.Contender{Queue: team}},
		{"zero contender", requeue.Victim{Queue: team, Start: t0.Add(-time.Minute)}, requeue.Contender{}},
	} {
		if d := vf.FilterVictim(t0, &tc.v, &tc.c); d.Allowed || d.Reason != minruntime.ReasonQueueUnset {
			t.Errorf("%s: %v, want denied queue_unset", tc.name, d)
		}
	}
}

// failOpenPolicy is failClosedPolicy with Config.FailOpenUnknownQueues set
// to failOpen and a node-pool default of 30m for both actions, so that an
// unset queue resolves to a protection different from the team's 2h.
func failOpenPolicy(t *testing.T, failOpen bool) (*tenure.Policy, queuetree.ID) {
	t.Helper()
	return teamPolicy(t, tenure.Config{
		MinRuntimeArgs:        map[string]string{"defaultPreemptMinRuntime": "30m", "defaultReclaimMinRuntime": "30m"},
		FailOpenUnknownQueues: failOpen,
	})
}

// TestFailOpenCheckVictim: with FailOpenUnknownQueues, Cycle.CheckVictim
// resolves an unset or stale queue to the node-pool default (30m): a
// victim started 10m ago is protected until start+30m, one started 40m
// ago is allowed; without it, both are denied fail-closed.
func TestFailOpenCheckVictim(t *testing.T) {
	for _, failOpen := range []bool{false, true} {
		p, team := failOpenPolicy(t, failOpen)
		c := p.BeginAt(t0)
		for _, q := range []queuetree.ID{queuetree.None, 1000} {
			for _, ago := range []time.Duration{10 * time.Minute, 40 * time.Minute} {
				job := eligibility.Job{ID: "j", Queue: q, Start: t0.Add(-ago)}
				d := c.CheckVictim(runtime.ActionPreempt, team, &job)
				switch {
				case !failOpen:
					if d.Allowed || d.Reason != minruntime.ReasonQueueUnset && d.Reason != minruntime.ReasonUnknownQueue {
						t.Errorf("fail closed, queue %d, %v ago: %v", q, ago, d)
					}
				case ago == 10*time.Minute:
					if d.Allowed || d.Reason != eligibility.ReasonMinRuntimeProtected || !d.Until.Equal(job.Start.Add(30*time.Minute)) {
						t.Errorf("fail open, queue %d, %v ago: %v, want protected until start+30m", q, ago, d)
					}
				default:
					if !d.Allowed {
						t.Errorf("fail open, queue %d, %v ago: %v, want allowed", q, ago, d)
					}
				}
			}
		}
	}
}

// TestFailOpenValidateScenario: with FailOpenUnknownQueues, a scenario
// taking one of four tasks (MinAvailable 1) of an elastic victim whose
// queue is unset is judged under the defaults and allowed; fail-closed it
// is rejected.
func TestFailOpenValidateScenario(t *testing.T) {
	for _, failOpen := range []bool{false, true} {
		p, team := failOpenPolicy(t, failOpen)
		c := p.BeginAt(t0)
		job := &eligibility.Job{ID: "e", Start: t0.Add(-10 * time.Minute),
			Subgroups: []eligibility.Subgroup{{Name: "w", MinAvailable: 1, Active: 4}}}
		d, err := c.ValidateScenario(runtime.ActionPreempt, team,
			[]minruntime.Victim{{Job: job, Tasks: []minruntime.Task{{Subgroup: "w", Active: true}}}})
		if err != nil {
			t.Fatal(err)
		}
		if failOpen != d.Allowed || !failOpen && d.Reason != minruntime.ReasonQueueUnset {
			t.Errorf("failOpen=%v: %v", failOpen, d)
		}
	}
}

// TestFailOpenRequeue: with FailOpenUnknownQueues, Cycle.Requeue's engine
// judges a victim whose queue is unset under the defaults: started 1h ago,
// past the 30m default, it is evicted (committed); fail-closed it is
// skipped with queue_unset.
func TestFailOpenRequeue(t *testing.T) {
	for _, failOpen := range []bool{false, true} {
		p, team := failOpenPolicy(t, failOpen)
		c := p.BeginAt(t0)
		v := eligibility.Job{ID: "v", Priority: 1, Preemptible: true, Running: true, Start: t0.Add(-time.Hour),
			Annotations: map[string]string{expectedruntime.AnnotationExpectedRuntime: "30m"}}
		res, err := c.Requeue(tenure.RequeueInput{
			Running:    []eligibility.Job{v},
			Contenders: []requeue.Contender{{ID: "hi", Priority: 9, Queue: team}},
		}, protectedCluster(t))
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Engine.Outcomes) != 1 {
			t.Fatalf("failOpen=%v: %d outcomes", failOpen, len(res.Engine.Outcomes))
		}
		o := res.Engine.Outcomes[0]
		if failOpen && o.Kind != requeue.OutcomeCommitted || !failOpen && (o.Kind != requeue.OutcomeSkipped || o.Reason != minruntime.ReasonQueueUnset) {
			t.Errorf("failOpen=%v: %v %v", failOpen, o.Kind, o.Decision)
		}
	}
}
