package reserve

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/requeue/internal/cputime"
)

// benchWorld is n 8-GPU nodes in racks of 32, full of 10·n jobs of 1-2
// GPUs (a tenth past their expected end, a fifth protected, a twentieth
// without an expected runtime), and n/10 pending jobs, every tenth a
// gang of 2-8 whole nodes that has waited 10 hours (the others 1 GPU).
func benchWorld(n int) Input {
	rng := rand.New(rand.NewPCG(uint64(n), 7))
	in := Input{Nodes: make([]Node, n), Running: make([]Job, 0, 10*n), Pending: make([]Request, 0, n/10)}
	for i := range in.Nodes {
		in.Nodes[i] = Node{Name: fmt.Sprintf("node-%06d", i), Capacity: 8, Domain: fmt.Sprintf("rack-%04d", i/32)}
	}
	for len(in.Running) < 10*n {
		node := rng.IntN(n)
		j := Job{Node: in.Nodes[node].Name, Units: 1}
		j.ID = fmt.Sprintf("job-%07d", len(in.Running))
		j.Start = t0.Add(-time.Duration(rng.IntN(600)) * time.Minute)
		j.Resources = 1
		switch k := rng.IntN(20); {
		case k == 0: // no expected runtime
		case k < 3:
			j.Expected = time.Duration(1+rng.IntN(60)) * time.Minute // likely past it
		default:
			j.Expected = time.Duration(600+rng.IntN(1200)) * time.Minute
		}
		if rng.IntN(5) == 0 {
			j.ProtectedUntil = t0.Add(time.Duration(rng.IntN(240)) * time.Minute)
		}
		in.Running = append(in.Running, j)
	}
	for i := range n / 10 {
		r := Request{Tasks: 1, Units: 1, Expected: time.Hour}
		r.ID, r.Priority, r.Queued = fmt.Sprintf("pending-%06d", i), int32(rng.IntN(4)), t0.Add(-time.Duration(rng.IntN(60))*time.Minute)
		if i%10 == 0 {
			r.Tasks, r.Units, r.Queued = 2+rng.IntN(7), 8, t0.Add(-10*time.Hour)
			r.OneDomain = i%20 == 0
		}
		in.Pending = append(in.Pending, r)
	}
	return in
}

// BenchmarkPlan is one cycle's Plan (no model: the planning alone) at
// 1,000, 10,000 and 100,000 nodes (10 jobs each), holding up to 8
// reservations, each Plan from a fresh Planner; "naive" finds each node's
// start by trying every release instant (quadratic in the jobs of a
// node) and the nodes anew for each request.
func BenchmarkPlan(b *testing.B) {
	for _, n := range []int{1000, 10_000, 100_000} {
		in := benchWorld(n)
		b.Run(fmt.Sprintf("nodes=%d/jobs=%d", n, 10*n), func(b *testing.B) {
			p := mustNew(b, Config{Max: 8, After: time.Hour, MinUnits: 16})
			b.ReportAllocs()
			var cpu time.Duration
			for b.Loop() {
				p.held = p.held[:0]
				c0 := cputime.Used()
				res, _ := p.Plan(t0, in, nil)
				cpu += cputime.Used() - c0
				if len(res.Held) != 8 {
					b.Fatalf("held %d", len(res.Held))
				}
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
		// The same cycle when nothing qualifies yet (every job waits less
		// than After) and nothing is held: an idle Plan reads no running job.
		b.Run(fmt.Sprintf("nodes=%d/jobs=%d/idle", n, 10*n), func(b *testing.B) {
			p := mustNew(b, Config{Max: 8, After: 1000 * time.Hour, MinUnits: 16})
			b.ReportAllocs()
			var cpu time.Duration
			for b.Loop() {
				c0 := cputime.Used()
				res, _ := p.Plan(t0, in, nil)
				cpu += cputime.Used() - c0
				if len(res.Held) != 0 || res.Wake.IsZero() {
					b.Fatalf("held %d, wake %v", len(res.Held), res.Wake)
				}
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
		if n > 10_000 {
			continue
		}
		b.Run(fmt.Sprintf("nodes=%d/jobs=%d/naive", n, 10*n), func(b *testing.B) {
			var cpu time.Duration
			for b.Loop() {
				c0 := cputime.Used()
				naiveCycle(b, &in, 8)
				cpu += cputime.Used() - c0
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}

// naiveCycle plans the first max qualifying requests of in as the
// brute-force oracle plans a node (every release instant tried), over
// nodes grouped by name anew for each request.
func naiveCycle(b *testing.B, in *Input, max int) {
	held := map[string]bool{}
	taken := 0
	for _, r := range in.Pending {
		if taken == max || int64(r.Tasks)*r.Units < 16 {
			continue
		}
		byNode := map[string][]int{}
		for i := range in.Running {
			byNode[in.Running[i].Node] = append(byNode[in.Running[i].Node], i)
		}
		type st struct {
			at time.Duration
			n  string
		}
		var starts []st
		for _, nd := range in.Nodes {
			if held[nd.Name] {
				continue
			}
			sub := Input{Nodes: []Node{nd}}
			for _, i := range byNode[nd.Name] {
				sub.Running = append(sub.Running, in.Running[i])
			}
			if at, _, ok := naiveNodeStart(&sub, 0, r.Units); ok {
				starts = append(starts, st{at, nd.Name})
			}
		}
		if len(starts) < r.Tasks {
			continue
		}
		for _, s := range starts[:r.Tasks] {
			held[s.n] = true
		}
		taken++
	}
	if taken != max {
		b.Fatalf("naive took %d", taken)
	}
}
