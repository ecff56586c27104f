package eligibility_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// elBenchTree builds n queues of depth <= 8 with min-runtime settings on
// about a third of them, and the LCA resolver; plus the naive resolver for
// the baseline.
func elBenchTree(tb testing.TB, n int) (*queuetree.Tree, *runtime.Resolver, *elNaiveResolver) {
	rng := rand.New(rand.NewPCG(1, 2))
	queues := make([]queuetree.Queue, n)
	depth := make([]int, n)
	var settings []runtime.QueueSetting
	for i := range queues {
		queues[i].Name = fmt.Sprintf("q%d", i)
		depth[i] = 1
		if i > 10 {
			if p := rng.IntN(i); depth[p] < 8 {
				queues[i].Parent, depth[i] = queues[p].Name, depth[p]+1
			}
		}
		if rng.IntN(3) == 0 {
			s := runtime.QueueSetting{Queue: queues[i].Name}
			if rng.IntN(2) == 0 {
				s.Preempt = runtime.Explicit(time.Duration(rng.IntN(30)) * time.Minute)
			}
			s.Reclaim = runtime.Explicit(time.Duration(rng.IntN(30)) * time.Minute)
			settings = append(settings, s)
		}
	}
	tree, err := queuetree.New(queues)
	if err != nil {
		tb.Fatal(err)
	}
	cfg := runtime.Config{DefaultPreempt: 5 * time.Minute, DefaultReclaim: 10 * time.Minute, Queues: settings}
	r, err := runtime.NewResolver(tree, cfg)
	if err != nil {
		tb.Fatal(err)
	}
	naive := &elNaiveResolver{tree: tree, cfg: cfg, preempt: map[queuetree.ID]time.Duration{}, reclaim: map[queuetree.ID]time.Duration{}}
	for _, s := range settings {
		id, _ := tree.Lookup(s.Queue)
		if s.Preempt != nil {
			naive.preempt[id] = *s.Preempt
		}
		if s.Reclaim != nil {
			naive.reclaim[id] = *s.Reclaim
		}
	}
	return tree, r, naive
}

// elNaiveResolver is the baseline: per query it collects the reclaimer's
// ancestors in a set, walks the victim up to the LCA, then walks up again
// looking for a setting (the walk-per-query resolver KAI started from,
// without its pair cache).
type elNaiveResolver struct {
	tree             *queuetree.Tree
	cfg              runtime.Config
	preempt, reclaim map[queuetree.ID]time.Duration
}

func (n *elNaiveResolver) walk(from queuetree.ID, m map[queuetree.ID]time.Duration, def time.Duration) time.Duration {
	for q := from; q != queuetree.None && q != queuetree.Root; q = n.tree.Parent(q) {
		if d, ok := m[q]; ok {
			return d
		}
	}
	return def
}

func (n *elNaiveResolver) resolve(a runtime.Action, preemptor, victim queuetree.ID) time.Duration {
	if a == runtime.ActionPreempt {
		return n.walk(victim, n.preempt, n.cfg.DefaultPreempt)
	}
	anc := map[queuetree.ID]bool{}
	for q := preemptor; q != queuetree.None; q = n.tree.Parent(q) {
		anc[q] = true
	}
	c := victim
	for q := victim; q != queuetree.None; q = n.tree.Parent(q) {
		if anc[q] {
			break
		}
		c = q
	}
	return n.walk(c, n.reclaim, n.cfg.DefaultReclaim)
}

// elNaiveCheck is the naive filter on top of the naive resolver.
func elNaiveCheck(n *elNaiveResolver, a runtime.Action, preemptor queuetree.ID, victim *eligibility.Job, now time.Time) bool {
	for _, sg := range victim.Subgroups {
		if sg.MinAvailable < sg.Active {
			return true
		}
	}
	d := n.resolve(a, preemptor, victim.Queue)
	return d <= 0 || victim.Start.IsZero() || !now.Before(victim.Start.Add(d))
}

// elBenchN is the number of running victims and of pending preemptors in the
// pair benchmarks (4,000 × 4,000 pair checks, the scale of KAI's reclaim test), a power of two so
// that cycling through all pairs costs two masks.
const elBenchN = 4096

// elBenchPair returns the victim and preemptor indexes of the i-th pair: the
// victims cycle fastest, the preemptor shifts by one every full cycle, so
// every pair comes up once per elBenchN² iterations.
func elBenchPair(i int) (int, int) {
	return i & (elBenchN - 1), (i + i>>12) & (elBenchN - 1)
}

// elBenchPairs builds elBenchN running victims and elBenchN pending
// preemptors' queues over a 1,000-queue tree.
func elBenchPairs(tb testing.TB) (*eligibility.MinRuntimeFilter, *elNaiveResolver, []eligibility.Job, []queuetree.ID) {
	tree, r, naive := elBenchTree(tb, 1000)
	rng := rand.New(rand.NewPCG(3, 4))
	victims := make([]eligibility.Job, elBenchN)
	preemptors := make([]queuetree.ID, elBenchN)
	for i := range victims {
		v := eligibility.Job{
			ID:    fmt.Sprintf("v%d", i),
			Queue: queuetree.ID(2 + rng.IntN(tree.IDLimit()-2)),
			Start: elT0.Add(-time.Duration(rng.IntN(60)) * time.Minute),
		}
		active := int32(1 + rng.IntN(4))
		minAvail := active
		if rng.IntN(5) == 0 {
			minAvail = 1 // elastic
		}
		v.Subgroups = []eligibility.Subgroup{{Name: "", MinAvailable: minAvail, Active: active}}
		victims[i] = v
		preemptors[i] = queuetree.ID(2 + rng.IntN(tree.IDLimit()-2))
	}
	return &eligibility.MinRuntimeFilter{Resolver: r}, naive, victims, preemptors
}

// BenchmarkMinRuntimeFilter: one reclaim pair check per op (LCA method,
// 1,000 queues of depth <= 8, 4,096 × 4,096 pairs cycled, 20% of the
// victims elastic).
func BenchmarkMinRuntimeFilter(b *testing.B) {
	f, _, victims, preemptors := elBenchPairs(b)
	allowed := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		vi, pi := elBenchPair(i)
		v, p := &victims[vi], preemptors[pi]
		if f.Check(runtime.ActionReclaim, p, v, elT0).Allowed {
			allowed++
		}
	}
	_ = allowed
}

// BenchmarkMinRuntimeFilterPreempt: one preempt check per op.
func BenchmarkMinRuntimeFilterPreempt(b *testing.B) {
	f, _, victims, _ := elBenchPairs(b)
	allowed := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v := &victims[i&(elBenchN-1)]
		if f.Check(runtime.ActionPreempt, v.Queue, v, elT0).Allowed {
			allowed++
		}
	}
	_ = allowed
}

// BenchmarkMinRuntimeFilterNaive is the baseline for BenchmarkMinRuntimeFilter.
func BenchmarkMinRuntimeFilterNaive(b *testing.B) {
	_, naive, victims, preemptors := elBenchPairs(b)
	allowed := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		vi, pi := elBenchPair(i)
		v, p := &victims[vi], preemptors[pi]
		if elNaiveCheck(naive, runtime.ActionReclaim, p, v, elT0) {
			allowed++
		}
	}
	_ = allowed
}

func TestBenchFixturesAgree(t *testing.T) {
	f, naive, victims, preemptors := elBenchPairs(t)
	for i := range victims {
		for _, a := range []runtime.Action{runtime.ActionPreempt, runtime.ActionReclaim} {
			p := preemptors[(i*13)%len(preemptors)]
			now := elT0.Add(time.Duration(i%40) * time.Minute)
			if got, want := f.Check(a, p, &victims[i], now).Allowed, elNaiveCheck(naive, a, p, &victims[i], now); got != want {
				t.Fatalf("victim %d %v: filter %v, naive %v", i, a, got, want)
			}
		}
	}
}

// elBenchJobs builds n jobs of a realistic mix: 25% not opted in, 25%
// exceeded (half with a requeue-delay), 15% not yet exceeded, 15% in
// cooldown, 5% with an expired not-before, 5% invalid expected-runtime, 5%
// invalid not-before, 5% not running.
func elBenchJobs(n int) []eligibility.Job {
	now := elMin(600)
	jobs := make([]eligibility.Job, n)
	for i := range jobs {
		j := eligibility.Job{ID: fmt.Sprintf("ns/job-%05d", i), Running: true, Preemptible: true,
			Priority: int32(i % 7), Start: elT0.Add(time.Duration(i%60) * time.Second),
			Annotations: map[string]string{"app": "x", "team": "y"}}
		switch k := i % 20; {
		case k < 5: // not opted in
		case k < 10:
			j.Annotations[elKeyExp] = "2h"
			if k%2 == 0 {
				j.Annotations[elKeyDelay] = "10m"
			}
		case k < 13:
			j.Annotations[elKeyExp] = "1d"
		case k < 16:
			j.Annotations[elKeyExp] = "1h30m"
			j.Annotations[elKeyNB] = elRFC(now.Add(time.Hour))
		case k == 16:
			j.Annotations[elKeyExp] = "90m"
			j.Annotations[elKeyNB] = elRFC(now.Add(-time.Hour))
		case k == 17:
			j.Annotations[elKeyExp] = "two hours"
		case k == 18:
			j.Annotations[elKeyExp] = "1h"
			j.Annotations[elKeyNB] = "yesterday"
		default:
			j.Annotations[elKeyExp] = "1h"
			j.Running = false
		}
		jobs[i] = j
	}
	return jobs
}

// BenchmarkNominate50k: Nominate over 50,000 mixed jobs per op; the
// allocations are the two output slices (grown by append) and the errors of
// the invalid annotations.
func BenchmarkNominate50k(b *testing.B) {
	jobs := elBenchJobs(50000)
	n := eligibility.Nominator{}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := n.Nominate(jobs, elMin(600))
		if len(r.Nominations) == 0 {
			b.Fatal("no nominations")
		}
	}
}

// BenchmarkNominate50kAppendTo: the same with a reused Result and a Counter
// observer: the only allocations left are the invalid annotations' errors.
func BenchmarkNominate50kAppendTo(b *testing.B) {
	jobs := elBenchJobs(50000)
	n := eligibility.Nominator{Observer: &eligibility.Counter{}}
	var r eligibility.NominatorResult
	n.AppendTo(&r, jobs, elMin(600))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.Reset()
		n.AppendTo(&r, jobs, elMin(600))
	}
}

// BenchmarkNominate50kNaive is the baseline: parse every annotation of every
// job eagerly, then apply the rules.
func BenchmarkNominate50kNaive(b *testing.B) {
	jobs := elBenchJobs(50000)
	keys := eligibility.DefaultAnnotationKeys()
	now := elMin(600)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var noms []eligibility.Nomination
		var skips []eligibility.NominatorSkip
		for k := range jobs {
			j := &jobs[k]
			a := keys.Parse(j.Annotations)
			var reason eligibility.Reason
			switch {
			case !j.Running:
				reason = eligibility.ReasonNotRunning
			case !j.Preemptible:
				reason = eligibility.ReasonNotPreemptible
			case !a.HasExpected:
				continue
			case a.ExpectedErr != nil:
				reason = eligibility.ReasonInvalidDuration
			case j.Start.IsZero():
				reason = eligibility.ReasonMissingStart
			case now.Before(j.Start):
				reason = eligibility.ReasonClockSkew
			case now.Sub(j.Start) < a.Expected:
				continue
			case a.NotBeforeErr != nil:
				reason = eligibility.ReasonInvalidNotBefore
			case a.HasNotBefore && now.Before(a.NotBefore):
				reason = eligibility.ReasonCooldown
			default:
				noms = append(noms, eligibility.Nomination{RequeueVictim: eligibility.RequeueVictim{ID: j.ID, RequeueDelay: a.Delay}, Index: k, Overrun: now.Sub(j.Start) - a.Expected})
				continue
			}
			skips = append(skips, eligibility.NominatorSkip{Job: j.ID, Index: k, Decision: eligibility.Decision{Reason: reason}})
		}
		if len(noms) == 0 || len(skips) == 0 {
			b.Fatal("no nominations or no skips")
		}
	}
}

// BenchmarkScenarioValidator: one Validate of a scenario with 100 elastic
// victim jobs × 8 subgroups (4 active + 1 releasing task each), reused
// validator.
func BenchmarkScenarioValidator(b *testing.B) {
	tree, r := elDesignTree(b, runtime.MethodLCA)
	victims := elBigScenario(tree, 100, 8, 4)
	leaf3, _ := tree.Lookup("leaf3")
	v := eligibility.ScenarioValidator{Resolver: r}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := v.Validate(runtime.ActionReclaim, leaf3, victims, elMin(1)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScenarioValidatorAccumulated: the accumulated-scenario pattern,
// one op = 100 calls as the victim set grows from 1 to 100 jobs.
func BenchmarkScenarioValidatorAccumulated(b *testing.B) {
	tree, r := elDesignTree(b, runtime.MethodLCA)
	victims := elBigScenario(tree, 100, 8, 4)
	leaf3, _ := tree.Lookup("leaf3")
	v := eligibility.ScenarioValidator{Resolver: r}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k := 1; k <= len(victims); k++ {
			if _, err := v.Validate(runtime.ActionReclaim, leaf3, victims[:k], elMin(1)); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkScenarioValidatorNaive is the baseline for
// BenchmarkScenarioValidator: the test oracle's map-per-call count.
func BenchmarkScenarioValidatorNaive(b *testing.B) {
	tree, r := elDesignTree(b, runtime.MethodLCA)
	victims := elBigScenario(tree, 100, 8, 4)
	leaf3, _ := tree.Lookup("leaf3")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, _, _, err := elNaiveScenario(r, runtime.ActionReclaim, leaf3, victims, elMin(1)); err != nil {
			b.Fatal(err)
		}
	}
}
