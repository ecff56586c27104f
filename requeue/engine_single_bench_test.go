package requeue_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
)

// singleWorld is scaleWorld's cluster and victims with k contenders that
// one victim always serves: one task of 1, 2 or 4 GPUs (every node's
// larger victim holds at least 4). It compares engines on work both can
// do: the single-victim engine and the set engine commit one victim per
// served contender here.
func singleWorld(tb testing.TB, n, k int) (*cluster.Model, requeue.EngineInput, requeue.EngineConfig, time.Time) {
	c, in, cfg, now := scaleWorld(tb, n, 0)
	rng := rand.New(rand.NewPCG(uint64(n)+3, uint64(k)))
	for i := range k {
		id := fmt.Sprintf("single-%05d", i)
		g := int64(1) << rng.IntN(3)
		task := cluster.Resources{MilliCPU: 8000 * g, Memory: (64 << 30) * g, GPU: g}
		if err := c.AddJob(nil, cluster.Job{ID: id, Tasks: []cluster.Resources{task}}); err != nil {
			tb.Fatal(err)
		}
		in.Contenders = append(in.Contenders, requeue.Contender{ID: id, Priority: int32(5 + rng.IntN(5)), Queued: now.Add(-time.Duration(rng.IntN(600)) * time.Minute)})
	}
	return c, in, cfg, now
}

// BenchmarkEngineSingle: one pass over singleWorld, at KAI-Scheduler's
// reclaim scale test size and at 100,000 × 10,000.
func BenchmarkEngineSingle(b *testing.B) {
	for _, size := range []struct{ n, k int }{{4000, 4000}, {100_000, 10_000}} {
		base, in, cfg, now := singleWorld(b, size.n, size.k)
		b.Run(fmt.Sprintf("%dx%d/engine", size.n, size.k), func(b *testing.B) {
			benchPass(b, base, in, cfg, now, func(c *cluster.Model) requeue.Model { return c })
		})
	}
}
