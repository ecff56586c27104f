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

// scaleRuns are the ways a scale benchmark runs the engine: on the Cluster
// with every hint (shapes, fit bound, locality) and the default bounds;
// without the locality hint (one group: every set search starts from the
// cheapest victims of the whole cluster); without any hint; and the naive
// pass, the same rules (with the locality hint, so that it finds the same
// sets) without shapes, fit bound or bounds.
var scaleRuns = []struct {
	name  string
	model func(*cluster.Model) requeue.Model
	cfg   func(requeue.EngineConfig) requeue.EngineConfig
}{
	{"engine", func(c *cluster.Model) requeue.Model { return c }, func(c requeue.EngineConfig) requeue.EngineConfig { return c }},
	{"no-locality", func(c *cluster.Model) requeue.Model { return noLocality{c} }, func(c requeue.EngineConfig) requeue.EngineConfig { return c }},
	{"no-hints", func(c *cluster.Model) requeue.Model { return plainModel{c} }, func(c requeue.EngineConfig) requeue.EngineConfig { return c }},
	{"naive", func(c *cluster.Model) requeue.Model { return locPlain{c} }, func(c requeue.EngineConfig) requeue.EngineConfig {
		c.MaxAttempts, c.MaxChecks, c.MaxAttemptsPerVictim, c.MaxChecksPerVictim = unbounded, unbounded, unbounded, unbounded
		return c
	}},
}

// noLocality is the Cluster with its shapes and fit bounds (one victim,
// and a set), without the locality hint.
type noLocality struct{ c *cluster.Model }

func (m noLocality) Evict(j *requeue.Journal, id string) error         { return m.c.Evict(j, id) }
func (m noLocality) Place(j *requeue.Journal, id string) (bool, error) { return m.c.Place(j, id) }
func (m noLocality) Shape(job string) (string, bool)                   { return m.c.Shape(job) }
func (m noLocality) MayFit(v string, jobs []string, fits []bool)       { m.c.MayFit(v, jobs, fits) }
func (m noLocality) MayFitAfter(vs []string, job string) bool          { return m.c.MayFitAfter(vs, job) }

// largeNaive says whether to run the naive pass at 100,000 × 10,000 (it
// takes minutes): set TENURE_BENCH_NAIVE=1.
func largeNaive() bool { return os.Getenv("TENURE_BENCH_NAIVE") == "1" }

// BenchmarkEngineScale runs one pass at KAI-Scheduler's reclaim scale test
// size (4,000 × 4,000) and at 100,000 nominations × 10,000 contenders on
// 50,000 nodes, with the naive pass in the same run.
func BenchmarkEngineScale(b *testing.B) {
	for _, size := range []struct{ n, k int }{{4000, 4000}, {100_000, 10_000}} {
		base, in, cfg, now := scaleWorld(b, size.n, size.k)
		for _, r := range scaleRuns {
			if r.name == "naive" && size.n > 10_000 && !largeNaive() {
				continue
			}
			b.Run(fmt.Sprintf("%dx%d/%s", size.n, size.k, r.name), func(b *testing.B) {
				benchPass(b, base, in, r.cfg(cfg), now, r.model)
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
			if r.name == "no-hints" || r.name == "no-locality" || r.name == "naive" && size.n > 10_000 && !largeNaive() {
				continue
			}
			b.Run(fmt.Sprintf("%dx%d/%s", size.n, size.k, r.name), func(b *testing.B) {
				benchPass(b, base, in, r.cfg(cfg), now, r.model)
			})
		}
	}
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
		c0 := cpuTime()
		res, err = e.Run(now, in, m)
		cpu += cpuTime() - c0
		if err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	reportPass(b, res)
}

// TestEngineScaleWorld: on a small scaleWorld, the engine with the
// Cluster's hints and the naive pass give the same result and model, every
// commit's eviction was needed, and the world is not degenerate.
func TestEngineScaleWorld(t *testing.T) {
	base, in, cfg, now := scaleWorld(t, 2000, 400)
	var results []requeue.EngineResult
	var models []*cluster.Model
	for _, r := range scaleRuns {
		if r.name != "engine" && r.name != "naive" {
			continue
		}
		e, err := requeue.NewEngine(r.cfg(cfg))
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
	if d := cmp.Diff(results[1], results[0], sameResult...); d != "" {
		t.Fatalf("engine vs naive pass (-naive +engine):\n%s", d)
	}
	if d := cmp.Diff(models[1].Snapshot(), models[0].Snapshot()); d != "" {
		t.Fatalf("engine vs naive pass, model (-naive +engine):\n%s", d)
	}
	res := results[0]
	if res.Commits < 50 || res.Attempts >= results[1].Attempts/10 {
		t.Fatalf("%d commits, %d attempts (naive %d)", res.Commits, res.Attempts, results[1].Attempts)
	}
	replayState(t, base, res, func(before *cluster.Model, set []string, cn string) {
		checkIrreducible(t, before, set, cn)
	})
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
