package tenure_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure"
	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/backoff"
	"github.com/tenurepolicy/tenure/requeue/cluster"
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
		AnnotationKeys: expectedruntime.Keys{ExpectedRuntime: "k", RequeueDelay: "k"},
		Engine:         requeue.EngineConfig{DefaultDelay: -time.Second, Filters: []requeue.VictimFilter{nil}},
		Requeuing:      backoff.Strategy{Backoff: backoff.Config{Base: 2 * time.Hour, Max: time.Hour, Limit: &one}},
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

// TestZeroConfigIsSafe: the zero Config builds, wires every piece, reads
// the wall clock, and reports unknown queue names (TestEngineProtectsByDefault
// checks the engine's filter).
func TestZeroConfigIsSafe(t *testing.T) {
	p, err := tenure.New(tenure.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Tree().IDLimit() != 2 || p.Resolver() == nil || p.Engine() == nil || p.Filter().Resolver != p.Resolver() {
		t.Error("zero Config: pieces not wired")
	}
	if _, err := p.QueueID("anything"); !errors.Is(err, queuetree.ErrUnknownQueue) || !strings.Contains(err.Error(), `"anything"`) {
		t.Errorf("Queue(unknown) = %v", err)
	}
	c := p.Begin()
	if now := time.Now(); c.Now().After(now) || now.Sub(c.Now()) > time.Minute {
		t.Errorf("zero Clock is not the wall clock: %v", c.Now())
	}
}

// protectedCluster: one 8-GPU node running "v" (4 GPUs), a pending 8-GPU
// job "hi" that fits only if v goes.
func protectedCluster(t *testing.T) *cluster.Model {
	t.Helper()
	c, err := cluster.New([]cluster.Node{{Name: "n", Capacity: cluster.Resources{GPU: 8}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range []cluster.Job{{ID: "v", Tasks: []cluster.Resources{{GPU: 8}}}, {ID: "hi", Tasks: []cluster.Resources{{GPU: 8}}}} {
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
		q, err := p.QueueID("q")
		if err != nil {
			t.Fatal(err)
		}
		c := p.Begin()
		v := eligibility.Job{ID: "v", Queue: q, Priority: 1, Preemptible: true, Running: true, Start: t0.Add(-time.Hour),
			Annotations: map[string]string{expectedruntime.AnnotationExpectedRuntime: "30m"}}
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
	q, _ := p.QueueID("q")
	r, _ := p.QueueID("r")
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
		Queues: []tenure.Queue{{Name: "q", PreemptMinRuntime: "3h"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	q, _ := p.QueueID("q")
	c := p.BeginAt(t0)
	if !c.Wake().IsZero() {
		t.Fatal("Wake before any decision")
	}
	c.CheckVictim(runtime.ActionPreempt, q, &eligibility.Job{Queue: q, Start: t0}) // until t0+3h
	if !c.Wake().Equal(t0.Add(3 * time.Hour)) {
		t.Errorf("after filter: %v", c.Wake())
	}
	// A scenario decision: an elastic protected victim losing too much.
	elastic := eligibility.Job{ID: "e", Queue: q, Start: t0.Add(-2 * time.Hour),
		Subgroups: []eligibility.Subgroup{{Name: "w", MinAvailable: 2, Active: 3}}}
	d, err := c.ValidateScenario(runtime.ActionPreempt, q, []minruntime.Victim{{Job: &elastic,
		Tasks: []minruntime.Task{{Subgroup: "w", Active: true}, {Subgroup: "w", Active: true}}}})
	if err != nil || d.Allowed || !d.Until.Equal(t0.Add(time.Hour)) {
		t.Fatalf("scenario: %v %v", d, err)
	}
	if !c.Wake().Equal(t0.Add(time.Hour)) {
		t.Errorf("after scenario: %v", c.Wake())
	}
	c.CheckVictim(runtime.ActionPreempt, q, &eligibility.Job{Queue: q, Start: t0}) // until t0+3h again
	if !c.Wake().Equal(t0.Add(time.Hour)) {
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
	// No queues configured: the jobs sit at the root (an unset queue would
	// be denied, fail closed).
	v := eligibility.Job{ID: "v", Queue: queuetree.Root, Priority: 1, Preemptible: true, Running: true, Start: t0.Add(-time.Hour),
		Annotations: map[string]string{expectedruntime.AnnotationExpectedRuntime: "30m"}}
	if _, err := c.Requeue(tenure.RequeueInput{Running: []eligibility.Job{v},
		Contenders: []requeue.Contender{{ID: "hi", Priority: 9, Queue: queuetree.Root}}}, protectedCluster(t)); err != nil {
		t.Fatal(err)
	}
	want := []string{"er v nominated", "requeue v committed"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// TestCycleCheckVictimAllocs: the composed per-victim check stays on the
// filter's allocation-free hot path.
func TestCycleCheckVictimAllocs(t *testing.T) {
	p, err := tenure.New(tenure.Config{Queues: []tenure.Queue{{Name: "q", ReclaimMinRuntime: "1h"}, {Name: "r"}}})
	if err != nil {
		t.Fatal(err)
	}
	q, _ := p.QueueID("q")
	r, _ := p.QueueID("r")
	c := p.BeginAt(t0)
	victim := eligibility.Job{ID: "v", Queue: q, Start: t0}
	if n := testing.AllocsPerRun(100, func() { c.CheckVictim(runtime.ActionReclaim, r, &victim) }); n != 0 {
		t.Errorf("CheckVictim allocates %v", n)
	}
}

// TestNewSourceNames: the nominator's and the engine's event sources must be
// metric labels and must differ.
func TestNewSourceNames(t *testing.T) {
	for _, tc := range []struct {
		cfg  tenure.Config
		want string
	}{
		{tenure.Config{NominatorName: "requeue"}, "both"},
		{tenure.Config{Engine: requeue.EngineConfig{Name: "expectedruntime"}}, "both"},
		{tenure.Config{NominatorName: "Expected Runtime"}, "NominatorName"},
		{tenure.Config{Engine: requeue.EngineConfig{Name: "rq-1"}}, "Engine.Name"},
	} {
		if _, err := tenure.New(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want one mentioning %q", tc.cfg, err, tc.want)
		}
	}
}

// TestNewErrorIndicesAgree: a problem found by two parts names the same
// entry index in both messages.
func TestNewErrorIndicesAgree(t *testing.T) {
	_, err := tenure.New(tenure.Config{Queues: []tenure.Queue{{Name: "a"}, {Name: "b"}, {Name: "a", ReclaimMinRuntime: "1h"}}})
	if err == nil {
		t.Fatal("duplicate accepted")
	}
	for _, line := range strings.Split(err.Error(), "\n") {
		if !strings.Contains(line, "0") || !strings.Contains(line, "2") {
			t.Errorf("message does not name entries 0 and 2: %q", line)
		}
	}
}

// TestFilterCopyCannotDisableProtection: changing the filter a Policy hands
// out does not change the engine's.
func TestFilterCopyCannotDisableProtection(t *testing.T) {
	p, err := tenure.New(tenure.Config{Queues: []tenure.Queue{{Name: "q", PreemptMinRuntime: "2h"}}})
	if err != nil {
		t.Fatal(err)
	}
	f := p.Filter()
	f.Resolver = nil
	n := p.Nominator()
	n.Name = "changed"
	q, _ := p.QueueID("q")
	c := p.BeginAt(t0)
	v := eligibility.Job{ID: "v", Queue: q, Priority: 1, Preemptible: true, Running: true, Start: t0.Add(-time.Hour),
		Annotations: map[string]string{expectedruntime.AnnotationExpectedRuntime: "30m"}}
	res, err := c.Requeue(tenure.RequeueInput{Running: []eligibility.Job{v},
		Contenders: []requeue.Contender{{ID: "hi", Priority: 9, Queue: q}}}, protectedCluster(t))
	if err != nil {
		t.Fatal(err)
	}
	if o := res.Engine.Outcomes[0]; o.Kind != requeue.OutcomeSkipped || o.Reason != eligibility.ReasonMinRuntimeProtected {
		t.Errorf("outcome %v %v", o.Kind, o.Decision)
	}
	if got := res.Nominated.Nominations[0].Nominator; got != "expectedruntime" {
		t.Errorf("nominator name changed through a copy: %q", got)
	}
}

// TestCycleWakeSilentAndDeferred: a job not yet over its expected runtime
// (a silent outcome) sets Wake to when it will be; a deferred nomination
// sets Wake to the cycle's own instant.
func TestCycleWakeSilentAndDeferred(t *testing.T) {
	p, err := tenure.New(tenure.Config{})
	if err != nil {
		t.Fatal(err)
	}
	c := p.BeginAt(t0)
	young := eligibility.Job{ID: "young", Priority: 1, Preemptible: true, Running: true, Start: t0.Add(-10 * time.Minute),
		Annotations: map[string]string{expectedruntime.AnnotationExpectedRuntime: "1h"}}
	if _, err := c.Requeue(tenure.RequeueInput{Running: []eligibility.Job{young}}, protectedCluster(t)); err != nil {
		t.Fatal(err)
	}
	if !c.Wake().Equal(t0.Add(50 * time.Minute)) {
		t.Errorf("Wake = %v, want when young reaches its expected runtime", c.Wake())
	}

	p, err = tenure.New(tenure.Config{Engine: requeue.EngineConfig{MaxVictims: 1}})
	if err != nil {
		t.Fatal(err)
	}
	c = p.BeginAt(t0)
	old := func(id string) eligibility.Job {
		return eligibility.Job{ID: id, Queue: queuetree.Root, Priority: 1, Preemptible: true, Running: true, Start: t0.Add(-2 * time.Hour),
			Annotations: map[string]string{expectedruntime.AnnotationExpectedRuntime: "1h"}}
	}
	model, err := cluster.New([]cluster.Node{{Name: "n1", Capacity: cluster.Resources{GPU: 8}}, {Name: "n2", Capacity: cluster.Resources{GPU: 8}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range []string{"a", "b", "x", "y"} {
		if err := model.AddJob(nil, cluster.Job{ID: j, Tasks: []cluster.Resources{{GPU: 8}}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, j := range []string{"a", "b"} {
		if ok, err := model.Place(nil, j); !ok || err != nil {
			t.Fatal(ok, err)
		}
	}
	res, err := c.Requeue(tenure.RequeueInput{Running: []eligibility.Job{old("a"), old("b")},
		Contenders: []requeue.Contender{{ID: "x", Priority: 9, Queue: queuetree.Root}, {ID: "y", Priority: 9, Queue: queuetree.Root}}}, model)
	if err != nil {
		t.Fatal(err)
	}
	deferred := 0
	for _, o := range res.Engine.Outcomes {
		if o.Kind == requeue.OutcomeDeferred {
			deferred++
		}
	}
	if deferred != 1 || !c.Wake().Equal(t0) {
		t.Errorf("%d deferred, Wake = %v; want 1 and the cycle's instant", deferred, c.Wake())
	}
}

// TestCycleWakeDeferredWithoutProgress: a pass that a bound stopped before
// it committed a set or placed a contender would repeat itself on the same
// state, so Wake stays the earliest Until (a scheduler that sleeps until
// Wake must not spin); one that placed a contender without eviction before
// the bound stopped it sets Wake to the cycle's instant.
func TestCycleWakeDeferredWithoutProgress(t *testing.T) {
	running := func(id string, started time.Duration) eligibility.Job {
		return eligibility.Job{ID: id, Queue: queuetree.Root, Priority: 1, Preemptible: true, Running: true, Start: t0.Add(-started),
			Annotations: map[string]string{expectedruntime.AnnotationExpectedRuntime: "1h"}}
	}
	for _, tc := range []struct {
		name     string
		freeNode bool // a free 8-GPU node: contender z fits without eviction
		want     time.Time
	}{
		{"no progress", false, t0.Add(50 * time.Minute)}, // when young reaches its expected runtime
		{"placed without eviction", true, t0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := tenure.New(tenure.Config{Engine: requeue.EngineConfig{MaxVictims: 1}})
			if err != nil {
				t.Fatal(err)
			}
			nodes := []cluster.Node{{Name: "n1", Capacity: cluster.Resources{GPU: 16}}}
			if tc.freeNode {
				nodes = append(nodes, cluster.Node{Name: "n2", Capacity: cluster.Resources{GPU: 8}})
			}
			model, err := cluster.New(nodes)
			if err != nil {
				t.Fatal(err)
			}
			// x needs both a and b gone, a set over MaxVictims.
			for _, j := range []cluster.Job{{ID: "a", Tasks: []cluster.Resources{{GPU: 8}}}, {ID: "b", Tasks: []cluster.Resources{{GPU: 8}}},
				{ID: "x", Tasks: []cluster.Resources{{GPU: 16}}}, {ID: "z", Tasks: []cluster.Resources{{GPU: 8}}}} {
				if err := model.AddJob(nil, j); err != nil {
					t.Fatal(err)
				}
			}
			for _, j := range []string{"a", "b"} {
				if ok, err := model.Place(nil, j); !ok || err != nil {
					t.Fatal(ok, err)
				}
			}
			contenders := []requeue.Contender{{ID: "x", Priority: 9, Queue: queuetree.Root}}
			if tc.freeNode {
				contenders = append(contenders, requeue.Contender{ID: "z", Priority: 5, Queue: queuetree.Root})
			}
			c := p.BeginAt(t0)
			res, err := c.Requeue(tenure.RequeueInput{Running: []eligibility.Job{running("a", 2*time.Hour), running("b", 2*time.Hour),
				running("young", 10*time.Minute)}, Contenders: contenders}, model)
			if err != nil {
				t.Fatal(err)
			}
			e := res.Engine
			for _, o := range e.Outcomes {
				if o.Kind != requeue.OutcomeDeferred || o.Reason != eligibility.Reason("max_victims") {
					t.Errorf("%s: %v %v, want deferred by %s", o.Job, o.Kind, o.Reason, eligibility.Reason("max_victims"))
				}
			}
			if len(e.Outcomes) != 2 || e.Sets != 0 || len(e.FitWithoutEviction) != map[bool]int{false: 0, true: 1}[tc.freeNode] {
				t.Fatalf("%d outcomes, %d sets, placed %v; want a and b deferred, no set, z placed only with the free node",
					len(e.Outcomes), e.Sets, e.FitWithoutEviction)
			}
			if !c.Wake().Equal(tc.want) {
				t.Errorf("Wake = %v, want %v", c.Wake(), tc.want)
			}
		})
	}
}

// TestUnknownQueueIsOneError: every package that looks up a queue name
// reports an unknown one with the same error, usable with errors.Is and
// naming the queue, whatever prefix it adds.
func TestUnknownQueueIsOneError(t *testing.T) {
	p, err := tenure.New(tenure.Config{Queues: []tenure.Queue{{Name: "a"}}})
	if err != nil {
		t.Fatal(err)
	}
	_, policyErr := p.QueueID("gone")
	for name, err := range map[string]error{"Policy.QueueID": policyErr} {
		if !errors.Is(err, queuetree.ErrUnknownQueue) || !strings.HasSuffix(err.Error(), `unknown queue "gone"`) {
			t.Errorf("%s: error %v is not ErrUnknownQueue for \"gone\"", name, err)
		}
	}
}
