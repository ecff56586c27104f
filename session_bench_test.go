package tenure_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tenurepolicy/tenure"
)

// policyQueues returns n KAI-like queues (departments of 100 queues, depth
// at most 8, as runtime's and queuetree's session benchmarks draw them),
// with min-runtime strings on about a quarter of them, and the same list
// shuffled, as a scheduler reads it from a map in another session.
func policyQueues(n int) (qs, shuffled []tenure.Queue) {
	rng := rand.New(rand.NewPCG(7, uint64(n)))
	depth := make([]int, 0, n)
	for len(qs) < n {
		i := len(qs)
		q := tenure.Queue{Name: fmt.Sprintf("dept%d-queue%d", i/100, i)}
		d := 1
		if i%100 != 0 {
			for {
				p := i - i%100 + rng.IntN(i%100)
				if depth[p] < 8 {
					q.Parent, d = qs[p].Name, depth[p]+1
					break
				}
			}
		}
		if rng.IntN(4) == 0 {
			q.PreemptMinRuntime = fmt.Sprintf("%dm", rng.IntN(60))
			q.ReclaimMinRuntime = fmt.Sprintf("%dm", rng.IntN(60))
		}
		qs, depth = append(qs, q), append(depth, d)
	}
	shuffled = slices.Clone(qs)
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	return qs, shuffled
}

// BenchmarkUpdateQueues is the per-session cost of a Policy for n queues:
// New (the baseline: every session rebuilt), UpdateQueues with the same
// list in another order (the fast path: p itself), and UpdateQueues with
// one queue added (a full rebuild of the queue parts, as New's).
func BenchmarkUpdateQueues(b *testing.B) {
	for _, n := range []int{1_000, 4_000, 100_000} {
		qs, shuffled := policyQueues(n)
		cfg := tenure.Config{Queues: qs, MinRuntimeArgs: map[string]string{"defaultReclaimMinRuntime": "1m"}}
		p, err := tenure.New(cfg)
		if err != nil {
			b.Fatal(err)
		}
		added := append(slices.Clone(shuffled), tenure.Queue{Name: "dept0-new", Parent: qs[1].Name, PreemptMinRuntime: "5m"})
		b.Run(fmt.Sprintf("queues=%d/New", n), func(b *testing.B) {
			b.ReportAllocs()
			c := cfg
			c.Queues = shuffled
			for b.Loop() {
				if _, err := tenure.New(c); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("queues=%d/unchanged", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if np, err := p.UpdateQueues(shuffled); err != nil || np != p {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("queues=%d/one-added", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if np, err := p.UpdateQueues(added); err != nil || np == p {
					b.Fatal(err)
				}
			}
		})
	}
}
