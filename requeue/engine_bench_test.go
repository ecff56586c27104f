package requeue_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
	"github.com/tenurepolicy/tenure/requeue/internal/clustercheck"
	"github.com/tenurepolicy/tenure/requeue/internal/cputime"
)

// benchWorld builds a 1,000-nomination pass: 500 nodes (64 cores, 512 GiB, 8 GPUs),
// 1,000 nominated running jobs (plus a duplicate nomination by a second
// nominator for 200 of them), other running jobs filling the cluster, and
// 100 pending higher-priority contenders (gangs of 1-4 tasks of 1-8 GPUs).
// 10% of the victims are in cooldown and 10% protected by a filter.
func benchWorld(tb testing.TB) (*cluster.Model, requeue.EngineInput, requeue.EngineConfig, time.Time) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	now := t0.Add(24 * time.Hour)
	var nodes []cluster.Node
	for i := range 500 {
		nodes = append(nodes, cluster.Node{Name: fmt.Sprintf("node-%03d", i), Capacity: cluster.Resources{MilliCPU: 64000, Memory: 512 << 30, GPU: 8}})
	}
	c, err := cluster.New(nodes)
	if err != nil {
		tb.Fatal(err)
	}
	var in requeue.EngineInput
	protected := denyFilter{}
	for i := 0; len(in.Victims) < 1000; i++ {
		id := fmt.Sprintf("victim-%04d", i)
		g := 1 + rng.Int64N(4)
		task := cluster.Resources{MilliCPU: 4000 * g, Memory: (32 << 30) * g, GPU: g}
		if err := c.AddJob(nil, cluster.Job{ID: id, Tasks: []cluster.Resources{task}}); err != nil {
			tb.Fatal(err)
		}
		if ok, _ := c.Place(nil, id); !ok {
			tb.Fatal("benchmark cluster too small")
		}
		v := requeue.Victim{ID: id, Priority: int32(rng.IntN(5)), Start: now.Add(-time.Duration(2+rng.IntN(20)) * time.Hour), Expected: 2 * time.Hour}
		switch rng.IntN(10) {
		case 0:
			v.NotBefore = now.Add(time.Duration(1+rng.IntN(60)) * time.Minute)
		case 1:
			protected[id] = true
		case 2:
			v.RequeueDelay, v.HasRequeueDelay = 10*time.Minute, true
		}
		in.Victims = append(in.Victims, v)
		in.Nominations = append(in.Nominations, requeue.VictimNomination{Job: id, Nominator: "expectedruntime"})
		if i%5 == 0 {
			in.Nominations = append(in.Nominations, requeue.VictimNomination{Job: id, Nominator: "proportion"})
		}
	}
	// Fill what is left with unnominated 1-GPU jobs so every contender needs
	// an eviction.
	for i := 0; freeGPUs(c) > 0; i++ {
		id := fmt.Sprintf("filler-%04d", i)
		if err := c.AddJob(nil, cluster.Job{ID: id, Tasks: []cluster.Resources{{MilliCPU: 1000, Memory: 8 << 30, GPU: 1}}}); err != nil {
			tb.Fatal(err)
		}
		if ok, _ := c.Place(nil, id); !ok {
			break
		}
	}
	for i := range 100 {
		id := fmt.Sprintf("pending-%03d", i)
		n := 1 + rng.IntN(4)
		g := int64(1 << rng.IntN(4)) // 1, 2, 4, 8 GPUs per task
		tasks := make([]cluster.Resources, n)
		for t := range tasks {
			tasks[t] = cluster.Resources{MilliCPU: 4000 * g, Memory: (32 << 30) * g, GPU: g}
		}
		if err := c.AddJob(nil, cluster.Job{ID: id, Tasks: tasks}); err != nil {
			tb.Fatal(err)
		}
		in.Contenders = append(in.Contenders, requeue.Contender{ID: id, Priority: int32(1 + rng.IntN(10)), Queued: now.Add(-time.Duration(rng.IntN(600)) * time.Minute)})
	}
	// Shuffle the nominations: the engine must not depend on their order.
	rng.Shuffle(len(in.Nominations), func(i, j int) { in.Nominations[i], in.Nominations[j] = in.Nominations[j], in.Nominations[i] })
	return c, in, requeue.EngineConfig{DefaultDelay: 30 * time.Minute, Filters: []requeue.VictimFilter{protected}}, now
}

// freeGPUs returns the GPUs free on all of c's nodes.
func freeGPUs(c *cluster.Model) int64 {
	var n int64
	for _, free := range c.Snapshot().Free {
		n += free.GPU
	}
	return n
}

// BenchmarkEnginePass is one pass over benchWorld: journaled on the
// Cluster (with its shapes and fit bound), journaled without them, and the
// naive baseline that deep-copies the whole model for each eviction and each
// placement attempt (without them too: journal-no-hints and naive-copy make
// the same attempts). All start from a fresh copy of the same cluster (the
// copy is not timed).
func BenchmarkEnginePass(b *testing.B) {
	base, in, cfg, now := benchWorld(b)
	for _, bm := range []struct {
		name  string
		model func(*cluster.Model) requeue.Model
	}{
		{"journal", func(c *cluster.Model) requeue.Model { return c }},
		{"journal-no-hints", func(c *cluster.Model) requeue.Model { return plainModel{c} }},
		{"naive-copy", func(c *cluster.Model) requeue.Model { return copyModel{c} }},
	} {
		b.Run(bm.name, func(b *testing.B) {
			e, err := requeue.NewEngine(cfg)
			if err != nil {
				b.Fatal(err)
			}
			var res requeue.EngineResult
			var cpu time.Duration
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				m := bm.model(base.Clone())
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
			reportPass(b, res)
		})
	}
}

// copyModel is the naive baseline: instead of journaling each change, it
// copies the whole cluster before each eviction and each placement attempt,
// and restores the copy on rollback.
type copyModel struct{ c *cluster.Model }

func (m copyModel) save(j *requeue.Journal) {
	saved := m.c.Clone()
	j.Record(func() { *m.c = *saved })
}

func (m copyModel) Evict(j *requeue.Journal, id string) error {
	m.save(j)
	return m.c.Evict(nil, id)
}

func (m copyModel) Place(j *requeue.Journal, id string) (bool, error) {
	m.save(j)
	return m.c.Place(nil, id)
}

func reportPass(b *testing.B, res requeue.EngineResult) {
	kinds := map[requeue.OutcomeKind]int{}
	for _, o := range res.Outcomes {
		kinds[o.Kind]++
	}
	b.ReportMetric(float64(len(res.Outcomes)), "outcomes")
	b.ReportMetric(float64(res.Attempts), "attempts")
	b.ReportMetric(float64(res.Checks), "checks")
	b.ReportMetric(float64(kinds[requeue.OutcomeCommitted]), "committed")
	b.ReportMetric(float64(kinds[requeue.OutcomeKept]), "kept")
	b.ReportMetric(float64(kinds[requeue.OutcomeDeferred]), "deferred")
	b.ReportMetric(float64(len(res.FitWithoutEviction)), "free-fits")
}

// TestEnginePassAtScale checks the benchmark's world once: one outcome per
// nominated job, a non-degenerate mix of outcomes, and the committed
// evictions and placements replay on the initial cluster to the final one.
// (The engine-vs-naive differential runs on small worlds in
// TestEngineMatchesOracle; at this scale the naive engine takes seconds.)
func TestEnginePassAtScale(t *testing.T) {
	base, in, cfg, now := benchWorld(t)
	e, _ := requeue.NewEngine(cfg)
	c := base.Clone()
	res, err := e.Run(now, in, c)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Outcomes) != 1000 {
		t.Fatalf("%d outcomes, want 1000", len(res.Outcomes))
	}
	if res.Commits == 0 || res.Commits == 1000 {
		t.Fatalf("degenerate world: %d commits", res.Commits)
	}
	replay := replayState(t, base, res, func(before *cluster.Model, set []string, cn string) {
		checkIrreducible(t, before, set, cn)
	})
	if !cmp.Equal(replay.Snapshot(), c.Snapshot()) {
		t.Fatal("final model differs from the replay of the result")
	}
	if err := clustercheck.Check(c); err != nil {
		t.Fatal(err)
	}
}

// stepUndoer is a no-op undo step for journal benchmarks.
type stepUndoer struct{ n *int }

func (u stepUndoer) Undo(a, b int64) { *u.n++ }

// BenchmarkJournalCheckpoint: O(1), 0 allocs.
func BenchmarkJournalCheckpoint(b *testing.B) {
	var j requeue.Journal
	n := 0
	for range 1000 {
		j.RecordUndoer(stepUndoer{&n}, 0, 0)
	}
	var cp requeue.Checkpoint
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cp = j.Checkpoint()
	}
	if !j.Valid(cp) {
		b.Fatal("invalid checkpoint")
	}
}

// BenchmarkJournalRollback records k steps and rolls them back; ns/step
// stays flat as k grows (linear cost), with no allocation once the log has
// reached its size.
func BenchmarkJournalRollback(b *testing.B) {
	for _, k := range []int{1, 10, 100, 1000, 10000} {
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
			var j requeue.Journal
			n := 0
			u := stepUndoer{&n}
			cp := j.Checkpoint()
			for range k { // grow the log once
				j.RecordUndoer(u, 0, 0)
			}
			_ = j.Rollback(cp)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for s := range k {
					j.RecordUndoer(u, int64(s), 0)
				}
				if err := j.Rollback(cp); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*k), "ns/step")
		})
	}
}

// BenchmarkClusterEvictPlaceRollback is one engine attempt on the 500-node
// world: checkpoint, evict a victim, place a contender, roll back.
func BenchmarkClusterEvictPlaceRollback(b *testing.B) {
	c, in, _, _ := benchWorld(b)
	var j requeue.Journal
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v := in.Victims[i%len(in.Victims)].ID
		cn := in.Contenders[i%len(in.Contenders)].ID
		cp := j.Checkpoint()
		if err := c.Evict(&j, v); err != nil {
			b.Fatal(err)
		}
		if _, err := c.Place(&j, cn); err != nil {
			b.Fatal(err)
		}
		if err := j.Rollback(cp); err != nil {
			b.Fatal(err)
		}
	}
}
