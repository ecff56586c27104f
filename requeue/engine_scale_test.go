package requeue_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
	"github.com/tenurepolicy/tenure/requeue/internal/cputime"
)

// scaleWorld is the engine's scale test: n nominated 1-task victims, two per
// node, on n/2 full nodes of 8 GPUs (64 cores, 512 GiB), and k pending
// contenders: gangs of 1-4 tasks of 1, 2, 4 or 8 GPUs (16 shapes), priority
// 1-10 against the victims' 0-4. 10% of the victims are in cooldown, 10%
// protected by a filter from every contender, 10% carry their own requeue
// delay; a fifth of them have a second nominator.
func scaleWorld(tb testing.TB, n, k int) (*cluster.Model, requeue.EngineInput, requeue.EngineConfig, time.Time) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(uint64(n), uint64(k)))
	now := t0.Add(24 * time.Hour)
	c, nodes := scaleNodes(tb, n/2)
	in := requeue.EngineInput{
		Nominations: make([]requeue.VictimNomination, 0, n+n/5),
		Victims:     make([]requeue.Victim, 0, n),
		Contenders:  make([]requeue.Contender, 0, k),
	}
	protected := victimSet{}
	for i := range n / 2 {
		g := 1 + rng.Int64N(7) // the node's two victims hold g and 8-g GPUs
		for _, size := range []int64{g, 8 - g} {
			id := fmt.Sprintf("victim-%06d", len(in.Victims))
			if err := c.AddJob(nil, cluster.Job{ID: id, Tasks: []cluster.Resources{gpu(size)}}); err != nil {
				tb.Fatal(err)
			}
			if err := c.Bind(nil, id, []string{nodes[i]}); err != nil {
				tb.Fatal(err)
			}
			v := requeue.Victim{ID: id, Priority: int32(rng.IntN(5)), Start: now.Add(-time.Duration(2+rng.IntN(20)) * time.Hour), Expected: 2 * time.Hour}
			switch rng.IntN(10) {
			case 0:
				v.NotBefore = now.Add(time.Duration(1+rng.IntN(60)) * time.Minute)
			case 1:
				protected[id] = struct{}{}
			case 2:
				v.RequeueDelay, v.HasRequeueDelay = 10*time.Minute, true
			}
			in.Victims = append(in.Victims, v)
			in.Nominations = append(in.Nominations, requeue.VictimNomination{Job: id, Nominator: "expectedruntime"})
			if rng.IntN(5) == 0 {
				in.Nominations = append(in.Nominations, requeue.VictimNomination{Job: id, Nominator: "proportion"})
			}
		}
	}
	for i := range k {
		id := fmt.Sprintf("pending-%05d", i)
		tasks := make([]cluster.Resources, 1+rng.IntN(4))
		g := gpu(int64(1) << rng.IntN(4))
		for t := range tasks {
			tasks[t] = g
		}
		if err := c.AddJob(nil, cluster.Job{ID: id, Tasks: tasks}); err != nil {
			tb.Fatal(err)
		}
		in.Contenders = append(in.Contenders, requeue.Contender{ID: id, Priority: int32(1 + rng.IntN(10)), Queued: now.Add(-time.Duration(rng.IntN(600)) * time.Minute)})
	}
	rng.Shuffle(len(in.Nominations), func(i, j int) { in.Nominations[i], in.Nominations[j] = in.Nominations[j], in.Nominations[i] })
	return c, in, requeue.EngineConfig{DefaultDelay: 30 * time.Minute, Filters: []requeue.VictimFilter{protected}}, now
}

// victimSet is a filter protecting the victims it holds from every
// contender; no allocation.
type victimSet map[string]struct{}

func (s victimSet) FilterVictim(now time.Time, v *requeue.Victim, c *requeue.Contender) eligibility.Decision {
	if _, ok := s[v.ID]; ok {
		return eligibility.Decision{Reason: "minruntime_protected", Until: now.Add(time.Hour)}
	}
	return eligibility.Decision{Allowed: true}
}

// scaleRuns are the ways a scale benchmark runs the engine: without any
// hint (the model answers Evict and Place only; the headline), and on the
// Cluster with its hints (shapes and the fit bound). The baseline,
// evict-all-then-reprieve (referenceRun), runs beside them where it ends
// in reasonable time.
var scaleRuns = []struct {
	name  string
	model func(*cluster.Model) requeue.Model
}{
	{"no-hints", func(c *cluster.Model) requeue.Model { return plainModel{c} }},
	{"hints", func(c *cluster.Model) requeue.Model { return c }},
}

// largeNaive says whether to run the baseline beside the engine at the
// larger sizes (O(m²) evictions per contender for m eligible victims: 5
// minutes at 4,000 × 4,000): set TENURE_BENCH_NAIVE=1.
func largeNaive() bool { return os.Getenv("TENURE_BENCH_NAIVE") == "1" }

// BenchmarkEngineScale runs one pass at KAI-Scheduler's reclaim scale test
// size (4,000 × 4,000) and at 100,000 nominations × 10,000 contenders on
// 50,000 nodes, without hints and with them (the baseline at 4,000 × 4,000
// with TENURE_BENCH_NAIVE=1).
func BenchmarkEngineScale(b *testing.B) {
	for _, size := range []struct{ n, k int }{{4000, 4000}, {100_000, 10_000}} {
		base, in, cfg, now := scaleWorld(b, size.n, size.k)
		for _, r := range scaleRuns {
			b.Run(fmt.Sprintf("%dx%d/%s", size.n, size.k, r.name), func(b *testing.B) {
				benchPass(b, base, in, cfg, now, r.model)
			})
		}
		if largeNaive() && size.n <= 4000 {
			b.Run(fmt.Sprintf("%dx%d/evict-all-reprieve", size.n, size.k), func(b *testing.B) {
				benchReference(b, base, in, cfg, now)
			})
		}
	}
}

// BenchmarkEngineGrowth grows nominations and contenders 10× at a time
// (the ns/op ratio between steps is the growth factor; linear is 10×).
func BenchmarkEngineGrowth(b *testing.B) {
	for _, size := range []struct{ n, k int }{{1000, 100}, {10_000, 1000}, {100_000, 10_000}} {
		base, in, cfg, now := scaleWorld(b, size.n, size.k)
		for _, r := range scaleRuns {
			b.Run(fmt.Sprintf("%dx%d/%s", size.n, size.k, r.name), func(b *testing.B) {
				benchPass(b, base, in, cfg, now, r.model)
			})
		}
	}
}

// benchReference times the evict-all-then-reprieve baseline and reports
// what it served, beside the engine's "served" metric.
func benchReference(b *testing.B, base *cluster.Model, in requeue.EngineInput, cfg requeue.EngineConfig, now time.Time) {
	var res referenceResult
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		m := plainModel{base.Clone()}
		runtime.GC()
		b.StartTimer()
		res = referenceRun(now, cfg, in, m)
	}
	b.ReportMetric(float64(res.served), "served")
	b.ReportMetric(float64(res.evicted), "committed")
	b.ReportMetric(float64(res.free), "free-fits")
}

func benchPass(b *testing.B, base *cluster.Model, in requeue.EngineInput, cfg requeue.EngineConfig, now time.Time, model func(*cluster.Model) requeue.Model) {
	e, err := requeue.NewEngine(cfg)
	if err != nil {
		b.Fatal(err)
	}
	// One pass first, untimed: an embedder keeps its Engine, whose scratch
	// space then has its working size.
	res, err := e.Run(now, in, model(base.Clone()))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	var cpu time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		m := model(base.Clone())
		runtime.GC() // collect the clones' garbage outside the timed pass
		b.StartTimer()
		c0 := cputime.Used()
		res, err = e.Run(now, in, m)
		cpu += cputime.Used() - c0
		if err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(requeue.SearchFloor(e)), "floor")
	reportPass(b, res)
}

// TestEngineScaleWorld: on a small scaleWorld, the engine with the
// Cluster's hints and without any give the same result and model, every
// committed set is irreducible, the engine serves at least 95% of the
// contenders evict-all-then-reprieve serves, and the hints save Place
// calls.
func TestEngineScaleWorld(t *testing.T) {
	base, in, cfg, now := scaleWorld(t, 1000, 200)
	var results []requeue.EngineResult
	var models []*cluster.Model
	for _, r := range scaleRuns {
		e, err := requeue.NewEngine(cfg)
		if err != nil {
			t.Fatal(err)
		}
		c := base.Clone()
		res, err := e.Run(now, in, r.model(c))
		if err != nil {
			t.Fatal(err)
		}
		results, models = append(results, res), append(models, c)
	}
	if d := cmp.Diff(results[0], results[1], sameResult...); d != "" {
		t.Fatalf("hints vs none (-none +hints):\n%s", d)
	}
	if d := cmp.Diff(models[0].Snapshot(), models[1].Snapshot()); d != "" {
		t.Fatalf("hints vs none, model (-none +hints):\n%s", d)
	}
	res := results[0]
	ref := referenceRun(now, cfg, in, plainModel{base.Clone()})
	if res.Sets*100 < ref.served*95 || res.Commits < 50 || results[1].Places >= res.Places {
		t.Fatalf("%d sets (baseline %d), %d commits, %d Place calls with hints (%d without); free %d (baseline %d), no set %d, over share %d, over cap %d, untried %d", res.Sets, ref.served, res.Commits, results[1].Places, res.Places, len(res.FitWithoutEviction), ref.free, res.NoSet, res.OverShare, res.OverCap, res.Untried)
	}
	replayState(t, base, res, func(before *cluster.Model, set []string, cn string) {
		checkIrreducible(t, before, set, cn)
	})
	// The floor counts at least every committed victim, and the pass's
	// evictions (its examinations but the fit tests) at least the floor.
	e, _ := requeue.NewEngine(cfg)
	if _, err := e.Run(now, in, plainModel{base.Clone()}); err != nil {
		t.Fatal(err)
	}
	if f := requeue.SearchFloor(e); f < res.Commits || f > res.Checks-res.Attempts {
		t.Fatalf("floor %d: want between the %d committed victims and the %d evictions", f, res.Commits, res.Checks-res.Attempts)
	}
}

// gpu is the request of g GPUs in the scale worlds, with the CPU and
// memory that come with them on an 8-GPU node.
func gpu(g int64) cluster.Resources {
	return cluster.Resources{MilliCPU: 8000 * g, Memory: (64 << 30) * g, GPU: g}
}

// scaleNodes returns a cluster of count 8-GPU nodes and no jobs, and the
// nodes' names (node-00000, ...).
func scaleNodes(tb testing.TB, count int) (*cluster.Model, []string) {
	tb.Helper()
	nodes, names := make([]cluster.Node, count), make([]string, count)
	for i := range nodes {
		names[i] = fmt.Sprintf("node-%05d", i)
		nodes[i] = cluster.Node{Name: names[i], Capacity: gpu(8)}
	}
	c, err := cluster.New(nodes)
	if err != nil {
		tb.Fatal(err)
	}
	return c, names
}
