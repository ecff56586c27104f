package tenure_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/evictionbudget"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/eligibility/preemptordelay"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
	"github.com/tenurepolicy/tenure/runtime"
)

// agreeConfig is the Config of the agreement tests: two queues with
// min-runtimes, an eviction budget, a preemptor delay and a requeue delay.
func agreeConfig() tenure.Config {
	return tenure.Config{
		Queues: []tenure.Queue{
			{Name: "a", PreemptMinRuntime: "20m", ReclaimMinRuntime: "1h"},
			{Name: "b", ReclaimMinRuntime: "10m"},
		},
		Engine:         requeue.EngineConfig{DefaultDelay: 30 * time.Minute},
		PreemptorDelay: preemptordelay.Delay{Delay: 30 * time.Second},
		EvictionBudget: evictionbudget.Budget{Max: 1, Window: 3 * time.Hour},
	}
}

// directEngine is what a fork that skips Policy builds from the sections of
// agreeConfig: the tree, the resolver, the nominator and an engine whose
// filters are the min-runtime filter and, as filter funcs, the eviction
// budget on the victim's own record (looked up in records) and the
// preemptor delay, each decided at the instant the engine passes.
type directEngine struct {
	nominator expectedruntime.Nominator
	engine    *requeue.Engine
	records   map[string]string
}

func newDirectEngine(t testing.TB) *directEngine {
	t.Helper()
	cfg := agreeConfig()
	tree, err := queuetree.New([]queuetree.Queue{{Name: "a"}, {Name: "b"}})
	if err != nil {
		t.Fatal(err)
	}
	resolver, err := runtime.NewResolver(tree, runtime.Config{Queues: []runtime.QueueSetting{
		{Queue: "a", Preempt: explicit(20 * time.Minute), Reclaim: explicit(time.Hour)},
		{Queue: "b", Reclaim: explicit(10 * time.Minute)},
	}})
	if err != nil {
		t.Fatal(err)
	}
	d := &directEngine{records: map[string]string{}}
	ecfg := cfg.Engine
	ecfg.Filters = []requeue.VictimFilter{
		requeue.VictimMinRuntimeFilter{Filter: &minruntime.Filter{Resolver: resolver}},
		victimFilterFunc(func(now time.Time, v *requeue.Victim, _ *requeue.Contender) eligibility.Decision {
			return cfg.EvictionBudget.Check(d.records[v.ID], now)
		}),
		victimFilterFunc(func(now time.Time, _ *requeue.Victim, c *requeue.Contender) eligibility.Decision {
			return cfg.PreemptorDelay.Check(c.Queued, c.LastEvicted, c.Annotations, now)
		}),
	}
	d.engine, err = requeue.NewEngine(ecfg)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// run is Cycle.Requeue's work done by hand: nominate over in.Running, merge
// in's other nominations, one engine pass at now.
func (d *directEngine) run(now time.Time, in tenure.RequeueInput, model requeue.Model) (requeue.EngineResult, error) {
	clear(d.records)
	for id, v := range in.EvictionRecords {
		d.records[id] = v
	}
	for _, j := range in.Running {
		if v, ok := j.Annotations[evictionbudget.Annotation]; ok {
			d.records[j.ID] = v
		}
	}
	ein := requeue.EngineInput{Nominations: in.Nominations, Victims: in.Victims, Contenders: in.Contenders,
		Nominated: d.nominator.Nominate(in.Running, now).Nominations}
	return d.engine.Run(now, ein, model)
}

// agreeWorld is one drawn cycle: running jobs (each on a node of its own,
// some nominated through Running, some handed in with their eviction record
// in EvictionRecords) and pending contenders, at an instant.
type agreeWorld struct {
	now        time.Time
	running    []eligibility.Job
	handedIn   []eligibility.Job // nominated by "other", records in EvictionRecords
	contenders []requeue.Contender
}

func (w *agreeWorld) input() tenure.RequeueInput {
	in := tenure.RequeueInput{Running: w.running, Contenders: w.contenders}
	for _, j := range w.handedIn {
		in.Nominations = append(in.Nominations, requeue.VictimNomination{Job: j.ID, Nominator: "other"})
		in.Victims = append(in.Victims, requeue.Victim{ID: j.ID, Priority: j.Priority, Queue: j.Queue, Start: j.Start})
		if v, ok := j.Annotations[evictionbudget.Annotation]; ok {
			if in.EvictionRecords == nil {
				in.EvictionRecords = map[string]string{}
			}
			in.EvictionRecords[j.ID] = v
		}
	}
	return in
}

// model builds the cluster: one 8-GPU node per running job, each job and
// contender asking for a whole node.
func (w *agreeWorld) model(t interface{ Fatal(...any) }) *cluster.Model {
	var nodes []cluster.Node
	var jobs []string
	for _, js := range [][]eligibility.Job{w.running, w.handedIn} {
		for _, j := range js {
			nodes = append(nodes, cluster.Node{Name: "n-" + j.ID, Capacity: cluster.Resources{GPU: 8}})
			jobs = append(jobs, j.ID)
		}
	}
	m, err := cluster.New(nodes)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range w.contenders {
		jobs = append(jobs, c.ID)
	}
	for _, id := range jobs {
		if err := m.AddJob(nil, cluster.Job{ID: id, Tasks: []cluster.Resources{{GPU: 8}}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, js := range [][]eligibility.Job{w.running, w.handedIn} {
		for _, j := range js {
			if ok, err := m.Place(nil, j.ID); !ok || err != nil {
				t.Fatal("place", j.ID, ok, err)
			}
		}
	}
	return m
}

// drawAgreeWorld draws a world at now; queue IDs come from p.
func drawAgreeWorld(rt *rapid.T, p *tenure.Policy, now time.Time, label string) agreeWorld {
	qa, _ := p.QueueID("a")
	qb, _ := p.QueueID("b")
	queue := func(name string) queuetree.ID {
		if rapid.Bool().Draw(rt, name) {
			return qa
		}
		return qb
	}
	w := agreeWorld{now: now}
	minutes := func(name string, lo, hi int) time.Duration {
		return time.Duration(rapid.IntRange(lo, hi).Draw(rt, name)) * time.Minute
	}
	for i := range rapid.IntRange(1, 4).Draw(rt, label+"jobs") {
		id := fmt.Sprintf("v%d", i)
		j := eligibility.Job{ID: id, Queue: queue(label + id + "queue"), Priority: 1, Preemptible: true, Running: true,
			Start:       now.Add(-minutes(label+id+"age", 0, 300)),
			Annotations: map[string]string{expectedruntime.AnnotationExpectedRuntime: "15m"}}
		var evictions []time.Time
		for k := range rapid.IntRange(0, 2).Draw(rt, label+id+"evictions") {
			evictions = append(evictions, now.Add(-minutes(fmt.Sprintf("%s%sev%d", label, id, k), 0, 600)))
		}
		if len(evictions) > 0 {
			j.Annotations[evictionbudget.Annotation] = formatRecord(evictions)
		}
		if rapid.Bool().Draw(rt, label+id+"handedIn") {
			w.handedIn = append(w.handedIn, j)
		} else {
			w.running = append(w.running, j)
		}
	}
	for i := range rapid.IntRange(0, 3).Draw(rt, label+"contenders") {
		id := fmt.Sprintf("c%d", i)
		w.contenders = append(w.contenders, requeue.Contender{ID: id, Priority: int32(rapid.IntRange(1, 9).Draw(rt, label+id+"prio")),
			Queue: queue(label + id + "queue"), Queued: now.Add(-time.Duration(rapid.IntRange(0, 60).Draw(rt, label+id+"waited")) * time.Second)})
	}
	return w
}

// TestRequeueAgreesWithDirectEngine: Cycle.Requeue and an engine a fork
// builds itself from the same Config sections give the same outcomes, for
// a sequence of cycles on one Policy at drawn instants, hours apart or
// minutes apart: the Policy's eviction-budget filter decides on each
// victim's own record at the cycle's instant, never on an earlier cycle's
// records or instant (an engine handed out before any Requeue once
// committed a job whose budget was spent; run 7 h after one, it skipped a
// job on a stale "until 17:00" at 19:00).
func TestRequeueAgreesWithDirectEngine(t *testing.T) {
	p, err := tenure.New(agreeConfig())
	if err != nil {
		t.Fatal(err)
	}
	direct := newDirectEngine(t)
	diffOpts := cmp.Options{cmpopts.EquateErrors(), cmpopts.EquateEmpty()}
	rapid.Check(t, func(rt *rapid.T) {
		now := t0
		for k := range rapid.IntRange(1, 4).Draw(rt, "cycles") {
			label := fmt.Sprintf("c%d.", k)
			now = now.Add(time.Duration(rapid.SampledFrom([]int{0, 1, 10, 60, 7 * 60}).Draw(rt, label+"later")) * time.Minute)
			w := drawAgreeWorld(rt, p, now, label)
			got, gotErr := p.BeginAt(now).Requeue(w.input(), w.model(rt))
			want, wantErr := direct.run(now, w.input(), w.model(rt))
			if gotErr != nil || wantErr != nil {
				rt.Fatalf("cycle %d: errors %v, %v", k, gotErr, wantErr)
			}
			if diff := cmp.Diff(want.Outcomes, got.Engine.Outcomes, diffOpts); diff != "" {
				rt.Fatalf("cycle %d at %v: outcomes differ (-direct +Policy):\n%s", k, now, diff)
			}
			if diff := cmp.Diff(want.FitWithoutEviction, got.Engine.FitWithoutEviction, diffOpts); diff != "" {
				rt.Fatalf("cycle %d: FitWithoutEviction differs (-direct +Policy):\n%s", k, diff)
			}
		}
	})
}

// TestRequeueBudgetAtEachCycle: the cases the issue names. A victim whose
// budget is spent until 17:00 is skipped at 10:00 (the first Requeue of
// the Policy) with Until 17:00, and is requeued at 19:00, when the same
// record no longer denies.
func TestRequeueBudgetAtEachCycle(t *testing.T) {
	p, err := tenure.New(agreeConfig())
	if err != nil {
		t.Fatal(err)
	}
	at := func(h int) time.Time { return time.Date(2026, 3, 2, h, 0, 0, 0, time.UTC) }
	a, _ := p.QueueID("a")
	for _, tc := range []struct {
		now  time.Time
		want eligibility.Decision
	}{
		{at(12), eligibility.Decision{Reason: evictionbudget.ReasonExhausted, Until: at(14)}},
		{at(19), eligibility.Decision{Allowed: true, Reason: eligibility.Reason("committed")}},
		{at(13), eligibility.Decision{Reason: evictionbudget.ReasonExhausted, Until: at(14)}},
	} {
		w := agreeWorld{now: tc.now,
			running: []eligibility.Job{{ID: "v", Queue: a, Priority: 1, Preemptible: true, Running: true, Start: tc.now.Add(-5 * time.Hour),
				Annotations: map[string]string{
					expectedruntime.AnnotationExpectedRuntime: "15m",
					evictionbudget.Annotation:                 eligibility.FormatNotBefore(at(11)), // spent until 14:00
				}}},
			contenders: []requeue.Contender{{ID: "hi", Priority: 9, Queue: a, Queued: tc.now.Add(-time.Hour)}},
		}
		res, err := p.BeginAt(tc.now).Requeue(w.input(), w.model(t))
		if err != nil || len(res.Engine.Outcomes) != 1 {
			t.Fatalf("at %v: %v, %+v", tc.now, err, res.Engine.Outcomes)
		}
		if got := res.Engine.Outcomes[0].Decision; got != tc.want {
			t.Errorf("at %v: %v, want %v", tc.now.Format(time.TimeOnly), got, tc.want)
		}
	}
}

// victimFilterFunc adapts a function to requeue.VictimFilter.
type victimFilterFunc func(now time.Time, v *requeue.Victim, c *requeue.Contender) eligibility.Decision

func (f victimFilterFunc) FilterVictim(now time.Time, v *requeue.Victim, c *requeue.Contender) eligibility.Decision {
	return f(now, v, c)
}

// formatRecord writes instants as an eviction-record annotation: oldest
// first, each in the not-before format.
func formatRecord(ts []time.Time) string {
	ts = slices.Clone(ts)
	slices.SortFunc(ts, time.Time.Compare)
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = eligibility.FormatNotBefore(t)
	}
	return strings.Join(parts, ",")
}
