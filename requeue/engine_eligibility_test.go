package requeue_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
	"github.com/tenurepolicy/tenure/runtime"
)

// minRuntimeSetup: queues A -> {X, Y}; X preempt 1h, A reclaim 0.
func minRuntimeSetup(t *testing.T) (*queuetree.Tree, requeue.VictimMinRuntimeFilter) {
	t.Helper()
	tree, err := queuetree.New([]queuetree.Queue{{Name: "A"}, {Name: "X", Parent: "A"}, {Name: "Y", Parent: "A"}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := runtime.NewResolver(tree, runtime.Config{
		DefaultPreempt: 5 * time.Hour,
		DefaultReclaim: 5 * time.Hour,
		Queues: []runtime.QueueSetting{
			{Queue: "X", Preempt: explicit(time.Hour)},
			{Queue: "A", Reclaim: explicit(0)},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return tree, requeue.VictimMinRuntimeFilter{Filter: &minruntime.Filter{Resolver: res}}
}

func TestVictimMinRuntimeFilter(t *testing.T) {
	tree, f := minRuntimeSetup(t)
	x, _ := tree.Lookup("X")
	y, _ := tree.Lookup("Y")
	v := &requeue.Victim{ID: "v", Queue: x, Start: t0}
	same := &requeue.Contender{ID: "c", Queue: x}
	other := &requeue.Contender{ID: "d", Queue: y}
	tests := []struct {
		name string
		now  time.Time
		c    *requeue.Contender
		want eligibility.Decision
	}{
		{"same queue: preempt, protected before start+1h", t0.Add(59 * time.Minute), same,
			eligibility.Decision{Reason: "minruntime_protected", Until: t0.Add(time.Hour)}},
		{"same queue: evictable at exactly start+1h", t0.Add(time.Hour), same,
			eligibility.Decision{Allowed: true, Reason: "not_protected"}},
		{"start in the future: clock_skew, protected", t0.Add(-time.Minute), same,
			eligibility.Decision{Reason: "clock_skew", Until: t0.Add(time.Hour)}},
		{"other queue: reclaim, A's explicit 0", t0, other,
			eligibility.Decision{Allowed: true, Reason: "no_min_runtime"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, f.FilterVictim(tc.now, v, tc.c)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
	// A forgotten Filter fails closed, with a reason (never an empty one).
	if got := (requeue.VictimMinRuntimeFilter{}).FilterVictim(t0, v, same); got.Allowed || got.Reason != minruntime.ReasonNoResolver {
		t.Errorf("zero filter: %+v, want denied no_resolver", got)
	}
	if got := (requeue.VictimMinRuntimeFilter{Filter: &minruntime.Filter{FailOpen: true}}).FilterVictim(t0, v, same); !got.Allowed || got.Reason == "" {
		t.Errorf("FailOpen filter without a resolver: %+v, want allowed with a reason", got)
	}
	if a := testing.AllocsPerRun(100, func() { f.FilterVictim(t0, v, same) }); a != 0 {
		t.Errorf("FilterVictim allocates %v times", a)
	}
}

// TestEngineWithNominatorAndMinRuntime runs the expected-runtime requeue
// pipeline: the expected-runtime nominator's nominations, the min-runtime
// filter, the engine.
func TestEngineWithNominatorAndMinRuntime(t *testing.T) {
	tree, f := minRuntimeSetup(t)
	x, _ := tree.Lookup("X")
	now := t0.Add(3 * time.Hour)
	jobs := []eligibility.Job{
		{ID: "fresh", Queue: x, Priority: 1, Preemptible: true, Running: true, Start: now.Add(-59 * time.Minute),
			Annotations: map[string]string{"kai.scheduler/expected-runtime": "30m"}},
		{ID: "old", Queue: x, Priority: 1, Preemptible: true, Running: true, Start: t0,
			Annotations: map[string]string{"kai.scheduler/expected-runtime": "2h", "kai.scheduler/requeue-delay": "10m"}},
	}
	var nom expectedruntime.Nominator
	nr := nom.Nominate(jobs, now)
	in := requeue.EngineInput{Nominated: nr.Nominations}
	in.Nominations = append(in.Nominations, requeue.VictimNomination{Job: "old", Nominator: "proportion"})
	in.Contenders = []requeue.Contender{{ID: "p", Priority: 5, Queue: x}}

	c := gpuCluster(t, 2, fxJob{id: "fresh", gpus: []int64{4}, running: true}, fxJob{id: "old", gpus: []int64{4}, running: true}, fxJob{id: "p", gpus: []int64{4}})
	e, err := requeue.NewEngine(requeue.EngineConfig{Filters: []requeue.VictimFilter{f}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(now, in, c)
	if err != nil {
		t.Fatal(err)
	}
	want := []requeue.Outcome{
		{Job: "old", Nominators: []string{"expectedruntime", "proportion"}, Kind: requeue.OutcomeCommitted, Decision: eligibility.Decision{Allowed: true, Reason: eligibility.Reason("committed")},
			Contenders: []string{"p"}, NotBefore: now.Add(10 * time.Minute), Annotation: "2025-01-15T13:10:00Z"},
		// fresh has run less (59 minutes lost against 3 hours): the set
		// search tries it first, p fits in its room, and the min-runtime
		// filter protects it, which is what keeps it running.
		{Job: "fresh", Nominators: []string{"expectedruntime"}, Kind: requeue.OutcomeSkipped,
			Decision: eligibility.Decision{Reason: eligibility.ReasonMinRuntimeProtected, Until: now.Add(time.Minute)}},
	}
	if d := cmp.Diff(want, res.Outcomes, errPresence); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}

	// With "old" out of the way, "fresh" (1 minute short of its 1h preempt
	// min-runtime) is protected from a second contender.
	in2 := requeue.EngineInput{Nominated: nr.Nominations[:1], Contenders: []requeue.Contender{{ID: "q", Priority: 5, Queue: x}}}
	if err := c.AddJob(nil, cluster.Job{ID: "q", Tasks: []cluster.Resources{{GPU: 4}}}); err != nil {
		t.Fatal(err)
	}
	res, err = e.Run(now, in2, c)
	if err != nil {
		t.Fatal(err)
	}
	want = []requeue.Outcome{{Job: "fresh", Nominators: []string{"expectedruntime"}, Kind: requeue.OutcomeSkipped, Decision: eligibility.Decision{Reason: "minruntime_protected", Until: now.Add(time.Minute)}}}
	if d := cmp.Diff(want, res.Outcomes, errPresence); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
	if !res.Wake.Equal(now.Add(time.Minute)) {
		t.Errorf("Wake = %v, want %v", res.Wake, now.Add(time.Minute))
	}
}

// TestNominatedCarriesResources: the nominator passes
// eligibility.Job.Resources on in its nominations, and EngineInput.Nominated
// hands them to the engine as is (as the same entries in Nominations and
// Victims would), so the default cost rule weighs the lost work by them. "older" has run 3h holding 1 unit, "wider" 2h holding 4: by
// time alone "wider" loses less (2 < 3) and would go; weighted, "older"
// does (3 < 8).
func TestNominatedCarriesResources(t *testing.T) {
	now := t0.Add(3 * time.Hour)
	exp := map[string]string{expectedruntime.AnnotationExpectedRuntime: "1h"}
	for _, tc := range []struct {
		name           string
		older, wider   float64
		want, wantKept string
	}{
		{"resources set: weighted", 1, 4, "older", "wider"},
		{"resources unknown: time alone", 0, 0, "wider", "older"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			jobs := []eligibility.Job{
				{ID: "older", Priority: 1, Preemptible: true, Running: true, Start: t0, Resources: tc.older, Annotations: exp},
				{ID: "wider", Priority: 1, Preemptible: true, Running: true, Start: t0.Add(time.Hour), Resources: tc.wider, Annotations: exp},
			}
			nr := (&expectedruntime.Nominator{}).Nominate(jobs, now)
			for i, n := range nr.Nominations {
				if n.Resources != jobs[i].Resources {
					t.Fatalf("nomination %s: Resources %v, want the job's %v", n.ID, n.Resources, jobs[i].Resources)
				}
			}
			contenders := []requeue.Contender{{ID: "p", Priority: 5}}
			in := requeue.EngineInput{Nominated: nr.Nominations, Contenders: contenders}
			byHand := requeue.EngineInput{Contenders: contenders}
			for _, n := range nr.Nominations {
				byHand.Nominations = append(byHand.Nominations, requeue.VictimNomination{Job: n.ID, Nominator: n.Nominator})
				byHand.Victims = append(byHand.Victims, n.Victim)
			}
			model := func() requeue.Model {
				return gpuCluster(t, 2, fxJob{id: "older", gpus: []int64{4}, running: true}, fxJob{id: "wider", gpus: []int64{4}, running: true}, fxJob{id: "p", gpus: []int64{4}})
			}
			e, err := requeue.NewEngine(requeue.EngineConfig{})
			if err != nil {
				t.Fatal(err)
			}
			res, err := e.Run(now, in, model())
			if err != nil {
				t.Fatal(err)
			}
			want, err := e.Run(now, byHand, model())
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want, res, cmpopts.EquateErrors()); d != "" {
				t.Fatalf("Nominated differs from the same entries in Nominations and Victims (-by hand +Nominated):\n%s", d)
			}
			got := map[string]requeue.OutcomeKind{}
			for _, o := range res.Outcomes {
				got[o.Job] = o.Kind
			}
			if got[tc.want] != requeue.OutcomeCommitted || got[tc.wantKept] != requeue.OutcomeKept {
				t.Errorf("outcomes %v, want %s committed and %s kept", got, tc.want, tc.wantKept)
			}
		})
	}
}

// explicit returns a pointer to d, for a QueueSetting or a MinAdmitDuration.
func explicit(d time.Duration) *time.Duration { return &d }
