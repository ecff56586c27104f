package minruntime_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
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
				s.Preempt = explicit(time.Duration(rng.IntN(30)) * time.Minute)
			}
			s.Reclaim = explicit(time.Duration(rng.IntN(30)) * time.Minute)
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
func elBenchPairs(tb testing.TB) (*minruntime.Filter, *elNaiveResolver, []eligibility.Job, []queuetree.ID) {
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
	return &minruntime.Filter{Resolver: r}, naive, victims, preemptors
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

// BenchmarkScenarioValidator: one Validate of a scenario with 100 elastic
// victim jobs × 8 subgroups (4 active + 1 releasing task each), reused
// validator.
func BenchmarkScenarioValidator(b *testing.B) {
	tree, r := elDesignTree(b, runtime.MethodLCA)
	victims := elBigScenario(tree, 100, 8, 4)
	leaf3, _ := tree.Lookup("leaf3")
	v := minruntime.Validator{Resolver: r}
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
	v := minruntime.Validator{Resolver: r}
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
