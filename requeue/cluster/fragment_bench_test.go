package cluster

import (
	"fmt"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/requeue"
)

// fragmentedWorld builds n nodes of 64 cores, 1 GiB and 8 GPUs, each
// running a job that takes all its cores (even nodes) or all its GPUs (odd
// nodes), and a tiny victim (1 byte of memory) whose eviction frees nothing
// useful; k pending contenders each need 1 core and 1 GPU. The cluster's
// per-resource maxima (64 cores, 8 GPUs free) hold such a task, yet no node
// does: every attempt fails, the worst case of first fit over the segment
// tree. Every victim is nominated.
func fragmentedWorld(tb testing.TB, n, k int) (*Model, requeue.EngineInput) {
	tb.Helper()
	nodes := make([]Node, n)
	for i := range nodes {
		nodes[i] = Node{Name: fmt.Sprintf("n%05d", i), Capacity: Resources{MilliCPU: 64000, Memory: 1 << 30, GPU: 8}}
	}
	c, err := New(nodes)
	if err != nil {
		tb.Fatal(err)
	}
	var in requeue.EngineInput
	bind := func(id string, req Resources, node string) {
		if err := c.AddJob(nil, Job{ID: id, Tasks: []Resources{req}}); err != nil {
			tb.Fatal(err)
		}
		if err := c.Bind(nil, id, []string{node}); err != nil {
			tb.Fatal(err)
		}
	}
	for i, node := range nodes {
		hog := Resources{MilliCPU: 64000}
		if i%2 == 1 {
			hog = Resources{GPU: 8}
		}
		bind(fmt.Sprintf("hog%05d", i), hog, node.Name)
		id := fmt.Sprintf("v%05d", i)
		bind(id, Resources{Memory: 1}, node.Name)
		in.Nominations = append(in.Nominations, requeue.VictimNomination{Job: id, Nominator: "x"})
		in.Victims = append(in.Victims, requeue.Victim{ID: id})
	}
	for i := range k {
		id := fmt.Sprintf("p%05d", i)
		if err := c.AddJob(nil, Job{ID: id, Tasks: []Resources{{MilliCPU: 1000, GPU: 1}}}); err != nil {
			tb.Fatal(err)
		}
		in.Contenders = append(in.Contenders, requeue.Contender{ID: id, Priority: 5})
	}
	return c, in
}

// BenchmarkClusterPlaceFragmented: a placement attempt that fits no node
// of 20,000 fragmented ones, as the engine's set search makes them: evict,
// try the contender, roll both back (here one victim at a time). "cached" is the
// Cluster; "tree-only" the same search without its memory of failed
// requests (the segment tree alone, as before), in the same run.
func BenchmarkClusterPlaceFragmented(b *testing.B) {
	base, in := fragmentedWorld(b, 20_000, 1)
	for _, mode := range []string{"cached", "tree-only"} {
		b.Run(mode, func(b *testing.B) {
			c := base.Clone()
			c.fitCacheOff = mode == "tree-only"
			var j requeue.Journal
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				cp := j.Checkpoint()
				if err := c.Evict(&j, in.Victims[i%len(in.Victims)].ID); err != nil {
					b.Fatal(err)
				}
				if ok, err := c.Place(&j, "p00000"); ok || err != nil {
					b.Fatal("placed", err)
				}
				if err := j.Rollback(cp); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEngineFragmented: one pass over 10,000 nominated victims on
// 10,000 fragmented nodes with 100 contenders that fit nowhere, with the
// Cluster's hints and without, with and without its memory of failed
// requests, in the same run.
func BenchmarkEngineFragmented(b *testing.B) {
	base, in := fragmentedWorld(b, 10_000, 100)
	for _, r := range []struct {
		name   string
		model  func(*Model) requeue.Model
		noMemo bool
	}{
		{"cluster/cached", func(c *Model) requeue.Model { return c }, false},
		{"cluster/tree-only", func(c *Model) requeue.Model { return c }, true},
		{"no-hints/cached", func(c *Model) requeue.Model { return plainModel{c} }, false},
		{"no-hints/tree-only", func(c *Model) requeue.Model { return plainModel{c} }, true},
	} {
		b.Run(r.name, func(b *testing.B) {
			model := func(c *Model) requeue.Model {
				c.fitCacheOff = r.noMemo
				return r.model(c)
			}
			benchPass(b, base, in, requeue.EngineConfig{}, t0.Add(time.Hour), model)
		})
	}
}
