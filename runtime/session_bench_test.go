package runtime_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// sessionQueues returns n KAI-like queues (departments of 100 queues, depth
// at most 8) in a shuffled order, as a scheduler reads them from a map each
// session, with min-runtime settings on about a quarter of them. queuetree's
// sessionList, for that package's tree-only benchmarks, draws lists of the
// same shape (not the same lists: this one draws settings between the
// queues); test helpers cannot be shared across the two packages' tests.
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
				Preempt: runtime.Explicit(time.Duration(rng.IntN(60)) * time.Minute),
				Reclaim: runtime.Explicit(time.Duration(rng.IntN(60)) * time.Minute)})
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
		// The next session's snapshot: the same queues and settings in
		// another order, as a scheduler reads them from its maps.
		qs2 := slices.Clone(qs)
		cfg2 := cfg
		cfg2.Queues = slices.Clone(cfg.Queues)
		rng := rand.New(rand.NewPCG(9, 9))
		rng.Shuffle(len(qs2), func(i, j int) { qs2[i], qs2[j] = qs2[j], qs2[i] })
		rng.Shuffle(len(cfg2.Queues), func(i, j int) { cfg2.Queues[i], cfg2.Queues[j] = cfg2.Queues[j], cfg2.Queues[i] })
		b.Run(fmt.Sprintf("queues-%d/tenure-update-unchanged", n), func(b *testing.B) {
			benchUpdate(b, qs, cfg, qs2, cfg2, true)
		})
		// The common change: a few queues' settings changed (here two
		// alternating snapshots that differ in 3 settings), the queue list
		// unchanged. The tree is reused and the resolver rebuilt.
		cfg3 := cfg2
		cfg3.Queues = slices.Clone(cfg2.Queues)
		for k := 0; k < 3 && k < len(cfg3.Queues); k++ {
			cfg3.Queues[k].Preempt = runtime.Explicit(time.Duration(61+k) * time.Minute)
		}
		b.Run(fmt.Sprintf("queues-%d/tenure-update-3-settings-changed", n), func(b *testing.B) {
			benchUpdate(b, qs, cfg, qs2, cfg3, false)
		})
		// A queue added to the list (then removed again: the runs
		// alternate): the tree is patched (queuetree.Update's incremental
		// rebuild) and, the tree being new, the resolver rebuilt.
		added := append(slices.Clone(qs2), queuetree.Queue{Name: "added-queue", Parent: qs[0].Name})
		b.Run(fmt.Sprintf("queues-%d/tenure-update-1-queue-added", n), func(b *testing.B) {
			benchQueueAdded(b, qs, cfg, func(t *queuetree.Tree, i int) (*queuetree.Tree, error) {
				q := added
				if i&1 == 1 {
					q = qs
				}
				t, _, err := queuetree.Update(t, q)
				return t, err
			})
		})
		// The same change as a watch reports it: queuetree.Apply with the
		// one edit, no list to compare.
		b.Run(fmt.Sprintf("queues-%d/tenure-apply-1-queue-added", n), func(b *testing.B) {
			last := added[len(added)-1]
			benchQueueAdded(b, qs, cfg, func(t *queuetree.Tree, i int) (*queuetree.Tree, error) {
				e := queuetree.Edit{Name: last.Name, Parent: last.Parent}
				if i&1 == 1 {
					e = queuetree.Edit{Name: last.Name, Remove: true}
				}
				return queuetree.Apply(t, e)
			})
		})
		// The watch path for settings too: the added queue arrives with
		// its own setting (runtime.ApplyResolver), no Config compared.
		b.Run(fmt.Sprintf("queues-%d/tenure-apply-resolver-1-queue-added", n), func(b *testing.B) {
			benchWatch(b, qs, cfg, func(t *queuetree.Tree, i int) (*queuetree.Tree, []runtime.QueueSetting, error) {
				if i&1 == 1 {
					t, err := queuetree.Apply(t, queuetree.Edit{Name: "added-queue", Remove: true})
					return t, nil, err
				}
				t, err := queuetree.Apply(t, queuetree.Edit{Name: "added-queue", Parent: qs[0].Name})
				return t, []runtime.QueueSetting{{Queue: "added-queue", Preempt: runtime.Explicit(time.Hour)}}, err
			})
		})
		// One queue's setting changed, as a watch reports it: the tree
		// unchanged, the resolver patched for that queue's subtree.
		b.Run(fmt.Sprintf("queues-%d/tenure-apply-resolver-1-setting-changed", n), func(b *testing.B) {
			s := cfg.Queues[0]
			benchWatch(b, qs, cfg, func(t *queuetree.Tree, i int) (*queuetree.Tree, []runtime.QueueSetting, error) {
				e := runtime.QueueSetting{Queue: s.Queue, Preempt: runtime.Explicit(time.Duration(i&1) * time.Hour)}
				return t, []runtime.QueueSetting{e}, nil
			})
		})
		b.Run(fmt.Sprintf("queues-%d/naive-maps", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				sinkSession = newNaiveSession(qs, cfg)
			}
		})
	}
}

// startSession builds the tree and resolver of (qs, cfg) and starts the
// benchmark's clock.
func startSession(b *testing.B, qs []queuetree.Queue, cfg runtime.Config) (*queuetree.Tree, *runtime.Resolver) {
	t, err := queuetree.New(qs)
	if err != nil {
		b.Fatal(err)
	}
	r, err := runtime.NewResolver(t, cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	return t, r
}

// benchUpdate builds the tree and resolver of (qs, cfg), then updates
// them with (qs2, cfg2) and (qs, cfg) alternately, as successive sessions
// would. The tree is always reused; the resolver is reused exactly when
// resolverReused (the settings did not change).
func benchUpdate(b *testing.B, qs []queuetree.Queue, cfg runtime.Config, qs2 []queuetree.Queue, cfg2 runtime.Config, resolverReused bool) {
	t, r := startSession(b, qs, cfg)
	for i := 0; i < b.N; i++ {
		q, c := qs2, cfg2
		if i&1 == 1 {
			q, c = qs, cfg
		}
		nt, reused, err := queuetree.Update(t, q)
		if err != nil || !reused {
			b.Fatal("tree not reused", err)
		}
		nr, reused, err := runtime.UpdateResolver(r, nt, c)
		if err != nil || reused != resolverReused {
			b.Fatalf("resolver reused = %v, want %v (%v)", reused, resolverReused, err)
		}
		t, r = nt, nr
	}
}

// benchQueueAdded builds the tree and resolver of (qs, cfg), then, b.N
// times, changes the tree by step (given the tree and the step number;
// the steps alternate between a queue added and removed) and updates the
// resolver for it.
func benchQueueAdded(b *testing.B, qs []queuetree.Queue, cfg runtime.Config, step func(*queuetree.Tree, int) (*queuetree.Tree, error)) {
	t, r := startSession(b, qs, cfg)
	for i := 0; i < b.N; i++ {
		nt, err := step(t, i)
		if err != nil || nt == t {
			b.Fatal("tree not changed", err)
		}
		nr, reused, err := runtime.UpdateResolver(r, nt, cfg)
		if err != nil || reused {
			b.Fatal("resolver reused", err)
		}
		t, r = nt, nr
	}
}

// benchWatch builds the tree and resolver of (qs, cfg), then, b.N times,
// changes the tree and the settings by step (given the tree and the step
// number) and applies both, as a watch handler would.
func benchWatch(b *testing.B, qs []queuetree.Queue, cfg runtime.Config, step func(*queuetree.Tree, int) (*queuetree.Tree, []runtime.QueueSetting, error)) {
	t, r := startSession(b, qs, cfg)
	for i := 0; i < b.N; i++ {
		nt, edits, err := step(t, i)
		if err != nil {
			b.Fatal(err)
		}
		nr, err := runtime.ApplyResolver(r, nt, edits...)
		if err != nil {
			b.Fatal(err)
		}
		t, r = nt, nr
	}
}
