package runtime_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// sessionQueues returns n KAI-like queues (departments of 100 queues, depth
// at most 8) in a shuffled order, as a scheduler reads them from a map each
// session, with min-runtime settings on about a quarter of them (the root
// package's BenchmarkUpdateQueues draws lists of the same shape).
func sessionQueues(n int) ([]queuetree.Queue, runtime.Config) {
	rng := rand.New(rand.NewPCG(7, uint64(n)))
	qs := make([]queuetree.Queue, 0, n)
	depth := make([]int, 0, n)
	var cfg runtime.Config
	cfg.DefaultReclaim = time.Minute
	for len(qs) < n {
		i := len(qs)
		q := queuetree.Queue{Name: fmt.Sprintf("dept%d-queue%d", i/100, i)}
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
		qs, depth = append(qs, q), append(depth, d)
		if rng.IntN(4) == 0 {
			cfg.Queues = append(cfg.Queues, runtime.QueueSetting{Queue: q.Name,
				Preempt: explicit(time.Duration(rng.IntN(60)) * time.Minute),
				Reclaim: explicit(time.Duration(rng.IntN(60)) * time.Minute)})
		}
	}
	rng.Shuffle(len(qs), func(i, j int) { qs[i], qs[j] = qs[j], qs[i] })
	return qs, cfg
}

// naiveSession is the baseline: what a plugin without a precomputed
// structure builds per session, a map of parents and a map of settings
// (every query then walks the parent map).
type naiveSession struct {
	parent   map[string]string
	settings map[string]*runtime.QueueSetting
}

func newNaiveSession(qs []queuetree.Queue, cfg runtime.Config) naiveSession {
	s := naiveSession{parent: make(map[string]string, len(qs)), settings: make(map[string]*runtime.QueueSetting, len(cfg.Queues))}
	for _, q := range qs {
		s.parent[q.Name] = q.Parent
	}
	for i := range cfg.Queues {
		s.settings[cfg.Queues[i].Queue] = &cfg.Queues[i]
	}
	return s
}

var sinkSession naiveSession

// BenchmarkSessionBuild is the per-session cost of embedding: the queue
// tree and the resolver built from a session's queues (shuffled, a quarter
// of them with settings), beside the naive baseline of two maps.
func BenchmarkSessionBuild(b *testing.B) {
	for _, n := range []int{1_000, 4_000, 100_000} {
		qs, cfg := sessionQueues(n)
		b.Run(fmt.Sprintf("queues-%d/tenure", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				t, err := queuetree.New(qs)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := runtime.NewResolver(t, cfg); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("queues-%d/naive-maps", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				sinkSession = newNaiveSession(qs, cfg)
			}
		})
	}
}
