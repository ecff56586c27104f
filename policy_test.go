package tenure_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure"
	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/runtime"
)

var t0 = time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)

// TestNewReportsEveryProblem: one bad value in each part of the Config, all
// reported by one New.
func TestNewReportsEveryProblem(t *testing.T) {
	one := 1
	_, err := tenure.New(tenure.Config{
		Queues: []tenure.Queue{
			{Name: "a", ReclaimMinRuntime: "5x"},
			{Name: "a"},                    // duplicate
			{Name: "b", Parent: "missing"}, // unknown parent
		},
		MinRuntimeArgs: map[string]string{"reclaimResolveMethod": "nearest", "typoArg": "1h"},
		AnnotationKeys: eligibility.AnnotationKeys{ExpectedRuntime: "k", RequeueDelay: "k"},
		Engine:         requeue.EngineConfig{DefaultDelay: -time.Second, Filters: []requeue.VictimFilter{nil}},
		Backoff:        requeue.BackoffConfig{Base: 2 * time.Hour, Max: time.Hour, Limit: &one},
	})
	if err == nil {
		t.Fatal("New accepted a broken Config")
	}
	msg := err.Error()
	for _, want := range []string{`"a"`, "missing", `"5x"`, "nearest", "typoArg", "DefaultDelay", "Filters[0]", "base"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error does not mention %s:\n%s", want, msg)
		}
	}
	if n := len(strings.Split(msg, "\n")); n < 8 {
		t.Errorf("want every problem on its own line, got %d lines:\n%s", n, msg)
	}
}

// TestZeroConfigIsSafe: the zero Config builds, resolves every queue to 0
// (nothing protected), and its engine still runs the min-runtime filter.
func TestZeroConfigIsSafe(t *testing.T) {
	p, err := tenure.New(tenure.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Tree().Len() != 1 || p.Resolver() == nil || p.Engine() == nil || p.Filter().Resolver != p.Resolver() {
		t.Error("zero Config: pieces not wired")
	}
	if _, err := p.Queue("anything"); err == nil {
		t.Error("Queue accepted an unknown name")
	}
	c := p.Begin()
	if now := time.Now(); c.Now().After(now) || now.Sub(c.Now()) > time.Minute {
		t.Errorf("zero Clock is not the wall clock: %v", c.Now())
	}
}

// protectedCluster: one 8-GPU node running "v" (4 GPUs), a pending 8-GPU
// job "hi" that fits only if v goes.
func protectedCluster(t *testing.T) *requeue.Cluster {
	t.Helper()
	c, err := requeue.NewCluster([]requeue.Node{{Name: "n", Capacity: requeue.Resources{GPU: 8}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range []requeue.ClusterJob{{ID: "v", Tasks: []requeue.Resources{{GPU: 8}}}, {ID: "hi", Tasks: []requeue.Resources{{GPU: 8}}}} {
		if err := c.AddJob(nil, j); err != nil {
			t.Fatal(err)
		}
	}
	if ok, err := c.Place(nil, "v"); !ok || err != nil {
		t.Fatal("place v", ok, err)
	}
	return c
}

// TestEngineProtectsByDefault: a job over its expected runtime but inside
// its min-runtime is kept by the composed engine; only
// AllowProtectedRequeue lets it go.
func TestEngineProtectsByDefault(t *testing.T) {
	for _, allow := range []bool{false, true} {
		p, err := tenure.New(tenure.Config{
			Queues:                []tenure.Queue{{Name: "q", PreemptMinRuntime: "2h", ReclaimMinRuntime: "2h"}},
			Clock:                 clock.Func(func() time.Time { return t0 }),
			AllowProtectedRequeue: allow,
		})
		if err != nil {
			t.Fatal(err)
		}
		q, err := p.Queue("q")
		if err != nil {
			t.Fatal(err)
		}
		c := p.Begin()
		v := eligibility.Job{ID: "v", Queue: q, Priority: 1, Preemptible: true, Running: true, Start: t0.Add(-time.Hour),
			Annotations: map[string]string{eligibility.AnnotationExpectedRuntime: "30m"}}
		res, err := c.Requeue(tenure.RequeueInput{
			Running:    []eligibility.Job{v},
			Contenders: []requeue.Contender{{ID: "hi", Priority: 9, Queue: q}},
		}, protectedCluster(t))
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Engine.Outcomes) != 1 {
			t.Fatalf("allow=%v: %d outcomes", allow, len(res.Engine.Outcomes))
		}
		o := res.Engine.Outcomes[0]
		if allow {
			if o.Kind != requeue.OutcomeCommitted {
				t.Errorf("AllowProtectedRequeue: %v %v", o.Kind, o.Decision)
			}
			continue
		}
		want := eligibility.Decision{Reason: eligibility.ReasonMinRuntimeProtected, Until: t0.Add(time.Hour)}
		if o.Kind != requeue.OutcomeSkipped || o.Decision != want {
			t.Errorf("default: %v %v, want skipped %v", o.Kind, o.Decision, want)
		}
		if !c.Wake().Equal(t0.Add(time.Hour)) {
			t.Errorf("Wake = %v, want the protection expiry %v", c.Wake(), t0.Add(time.Hour))
		}
	}
}

// TestCycleReadsClockOnce: Begin reads the clock exactly once, and every
// decision of the cycle uses that instant even as the clock moves on.
func TestCycleReadsClockOnce(t *testing.T) {
	reads := 0
	now := t0
	p, err := tenure.New(tenure.Config{
		Queues: []tenure.Queue{{Name: "q", ReclaimMinRuntime: "1h"}, {Name: "r"}},
		Clock:  clock.Func(func() time.Time { reads++; now = now.Add(time.Hour); return now }),
	})
	if err != nil {
		t.Fatal(err)
	}
	if reads != 0 {
		t.Fatalf("New read the clock %d times", reads)
	}
	q, _ := p.Queue("q")
	r, _ := p.Queue("r")
	c := p.Begin()
	start := c.Now()
	victim := eligibility.Job{ID: "v", Queue: q, Start: start.Add(-30 * time.Minute)}
	for i := 0; i < 3; i++ {
		if d := c.CheckVictim(runtime.ActionReclaim, r, &victim); d.Allowed {
			t.Fatalf("check %d at a moving clock: %v", i, d)
		}
	}
	if _, err := c.Requeue(tenure.RequeueInput{}, protectedCluster(t)); err != nil {
		t.Fatal(err)
	}
	c.Admissible(requeue.RequeueState{})
	if reads != 1 || !c.Now().Equal(start) {
		t.Errorf("clock read %d times during one cycle; Now moved from %v to %v", reads, start, c.Now())
	}
	if !c.Wake().Equal(start.Add(30 * time.Minute)) {
		t.Errorf("Wake = %v", c.Wake())
	}
}

// TestCycleWakeIsEarliest: Wake is the earliest Until of every kind of
// decision made through the cycle, and zero before any.
func TestCycleWakeIsEarliest(t *testing.T) {
	p, err := tenure.New(tenure.Config{
		Queues:  []tenure.Queue{{Name: "q", PreemptMinRuntime: "3h"}},
		Backoff: requeue.BackoffConfig{Base: time.Minute, Max: time.Hour},
	})
	if err != nil {
		t.Fatal(err)
	}
	q, _ := p.Queue("q")
	c := p.BeginAt(t0)
	if !c.Wake().IsZero() {
		t.Fatal("Wake before any decision")
	}
	c.CheckVictim(runtime.ActionPreempt, q, &eligibility.Job{Queue: q, Start: t0}) // until t0+3h
	if !c.Wake().Equal(t0.Add(3 * time.Hour)) {
		t.Errorf("after filter: %v", c.Wake())
	}
	next, deactivated := c.ReadinessTimeout(requeue.RequeueState{}, 0) // requeue at t0+1m
	if deactivated || !next.RequeueAt.Equal(t0.Add(time.Minute)) || !c.Wake().Equal(t0.Add(time.Minute)) {
		t.Errorf("after timeout: %+v %v, wake %v", next, deactivated, c.Wake())
	}
	if ok, until := c.Admissible(next); ok || !until.Equal(t0.Add(time.Minute)) {
		t.Errorf("Admissible = %v %v", ok, until)
	}
	// A scenario decision: an elastic protected victim losing too much.
	elastic := eligibility.Job{ID: "e", Queue: q, Start: t0.Add(-2 * time.Hour),
		Subgroups: []eligibility.Subgroup{{Name: "w", MinAvailable: 2, Active: 3}}}
	d, err := c.ValidateScenario(runtime.ActionPreempt, q, []eligibility.ScenarioJob{{Job: &elastic,
		Tasks: []eligibility.ScenarioTask{{Subgroup: "w", Active: true}, {Subgroup: "w", Active: true}}}})
	if err != nil || d.Allowed || !d.Until.Equal(t0.Add(time.Hour)) {
		t.Fatalf("scenario: %v %v", d, err)
	}
	if !c.Wake().Equal(t0.Add(time.Minute)) {
		t.Errorf("a later Until raised Wake: %v", c.Wake())
	}
}

// TestPolicyObserverSeesEveryComponent: Config.Observer receives the
// nominator's and the engine's events, by source.
func TestPolicyObserverSeesEveryComponent(t *testing.T) {
	var got []string
	obs := eligibility.ObserverFunc(func(e eligibility.Event) { got = append(got, e.Source+" "+e.Job+" "+string(e.Reason)) })
	p, err := tenure.New(tenure.Config{Observer: obs, NominatorName: "er"})
	if err != nil {
		t.Fatal(err)
	}
	c := p.BeginAt(t0)
	v := eligibility.Job{ID: "v", Priority: 1, Preemptible: true, Running: true, Start: t0.Add(-time.Hour),
		Annotations: map[string]string{eligibility.AnnotationExpectedRuntime: "30m"}}
	if _, err := c.Requeue(tenure.RequeueInput{Running: []eligibility.Job{v},
		Contenders: []requeue.Contender{{ID: "hi", Priority: 9, Queue: queuetree.None}}}, protectedCluster(t)); err != nil {
		t.Fatal(err)
	}
	want := []string{"er v nominated", "requeue v committed"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}
