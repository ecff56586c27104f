package runtime_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// benchFixture models KAI-Scheduler's reported reclaim benchmark: 4,000
// running jobs × 4,000 pending jobs on a 1,000-queue tree (10 top-level
// queues × 100 queues each, depth ≤ 8), jobs in leaf queues.
type benchFixture struct {
	tree    *queuetree.Tree
	cfg     runtime.Config
	queues  []naiveQueue
	running []queuetree.ID    // victims' queues
	pending []queuetree.ID    // reclaimers' queues
	pairs   [][2]queuetree.ID // random (pending, running) pairs
	names   [][2]string       // pairs by name, for the naive baseline
	inner   [][2]queuetree.ID // random pairs under one top-level queue
	iNames  [][2]string
}

const (
	benchTop      = 10
	benchPerTop   = 100
	benchMaxDepth = 8
	benchJobs     = 4000
	benchPairs    = 1 << 12
)

func newBenchFixture(tb testing.TB, method runtime.Method) *benchFixture {
	tb.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	f := &benchFixture{cfg: runtime.Config{
		DefaultPreempt: time.Minute,
		DefaultReclaim: 5 * time.Minute,
		Method:         method,
	}}
	setting := func() *time.Duration {
		switch p := rng.IntN(10); {
		case p < 1:
			return explicit(0)
		case p < 3:
			return explicit(time.Duration(1+rng.IntN(60)) * time.Minute)
		}
		return nil
	}
	var tq []queuetree.Queue
	depth := map[string]int{}
	children := map[string]int{}
	for t := 0; t < benchTop; t++ {
		top := fmt.Sprintf("t%d", t)
		sub := []string{top}
		depth[top] = 1
		tq = append(tq, queuetree.Queue{Name: top})
		f.queues = append(f.queues, naiveQueue{name: top, preempt: setting(), reclaim: setting()})
		for i := 1; i < benchPerTop; i++ {
			// Attach below a recent queue to get deep paths, capped at depth 8.
			var parent string
			for {
				parent = sub[max(0, len(sub)-1-rng.IntN(8))]
				if rng.IntN(4) == 0 {
					parent = sub[rng.IntN(len(sub))]
				}
				if depth[parent] < benchMaxDepth {
					break
				}
			}
			name := fmt.Sprintf("%s.q%d", top, i)
			depth[name] = depth[parent] + 1
			children[parent]++
			sub = append(sub, name)
			tq = append(tq, queuetree.Queue{Name: name, Parent: parent})
			f.queues = append(f.queues, naiveQueue{name: name, parent: parent, preempt: setting(), reclaim: setting()})
		}
	}
	for _, q := range f.queues {
		if q.preempt != nil || q.reclaim != nil {
			f.cfg.Queues = append(f.cfg.Queues, runtime.QueueSetting{Queue: q.name, Preempt: q.preempt, Reclaim: q.reclaim})
		}
	}
	tree, err := queuetree.New(tq)
	if err != nil {
		tb.Fatal(err)
	}
	f.tree = tree
	var leaves []queuetree.ID
	for _, q := range tq {
		if children[q.Name] == 0 {
			id, _ := tree.Lookup(q.Name)
			leaves = append(leaves, id)
		}
	}
	for i := 0; i < benchJobs; i++ {
		f.running = append(f.running, leaves[rng.IntN(len(leaves))])
		f.pending = append(f.pending, leaves[rng.IntN(len(leaves))])
	}
	for i := 0; i < benchPairs; i++ {
		p := [2]queuetree.ID{f.pending[rng.IntN(benchJobs)], f.running[rng.IntN(benchJobs)]}
		f.pairs = append(f.pairs, p)
		f.names = append(f.names, [2]string{tree.Name(p[0]), tree.Name(p[1])})
	}
	for len(f.inner) < benchPairs {
		p := [2]queuetree.ID{f.pending[rng.IntN(benchJobs)], f.running[rng.IntN(benchJobs)]}
		if topLevel(tree, p[0]) == topLevel(tree, p[1]) { // they meet below the root
			f.inner = append(f.inner, p)
			f.iNames = append(f.iNames, [2]string{tree.Name(p[0]), tree.Name(p[1])})
		}
	}
	return f
}

func (f *benchFixture) resolver(tb testing.TB) *runtime.Resolver {
	r, err := runtime.NewResolver(f.tree, f.cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// TestBenchFixture checks the benchmark tree has the advertised shape and
// that the resolver agrees with the naive baseline on the benchmark pairs.
func TestBenchFixture(t *testing.T) {
	for _, m := range []runtime.Method{runtime.MethodLCA, runtime.MethodQueue} {
		f := newBenchFixture(t, m)
		if got := f.tree.IDLimit(); got != benchTop*benchPerTop+2 {
			t.Fatalf("tree has IDLimit %d; want %d", got, benchTop*benchPerTop+2)
		}
		maxDepth := 0
		for x := queuetree.Root; f.tree.Valid(x); x++ {
			d := 0
			for q := x; q != queuetree.Root; q = f.tree.Parent(q) {
				d++
			}
			maxDepth = max(maxDepth, d)
		}
		if maxDepth != benchMaxDepth {
			t.Errorf("max depth %d; want %d", maxDepth, benchMaxDepth)
		}
		r, naive := f.resolver(t), newNaive(f.cfg, f.queues)
		allNames := append(append([][2]string(nil), f.names...), f.iNames...)
		for i, p := range append(append([][2]queuetree.ID(nil), f.pairs...), f.inner...) {
			names := allNames[i]
			got := r.Resolve(runtime.ActionReclaim, p[0], p[1])
			d, src := naive.Reclaim(names[0], names[1])
			if got.Duration != d || got.SourceName != src {
				t.Fatalf("%v: Reclaim(%s → %s) = %v; naive says %v from %q", m, names[0], names[1], got, d, src)
			}
		}
	}
}

var sink time.Duration

// BenchmarkReclaimLCA is one reclaim query with the default method:
// "random" pairs of leaf queues (mostly under different top-level queues,
// answered in O(1)), and "same-top-level" pairs (the climb).
func BenchmarkReclaimLCA(b *testing.B) {
	f := newBenchFixture(b, runtime.MethodLCA)
	r := f.resolver(b)
	for _, bc := range []struct {
		name  string
		pairs [][2]queuetree.ID
	}{{"random", f.pairs}, {"same-top-level", f.inner}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			var s time.Duration
			for i := 0; i < b.N; i++ {
				p := bc.pairs[i&(benchPairs-1)]
				s += r.Resolve(runtime.ActionReclaim, p[0], p[1]).Duration
			}
			sink = s
		})
	}
}

// BenchmarkReclaimQueue is one reclaim query with the queue method.
func BenchmarkReclaimQueue(b *testing.B) {
	f := newBenchFixture(b, runtime.MethodQueue)
	r := f.resolver(b)
	b.ReportAllocs()
	b.ResetTimer()
	var s time.Duration
	for i := 0; i < b.N; i++ {
		p := f.pairs[i&(benchPairs-1)]
		s += r.Resolve(runtime.ActionReclaim, p[0], p[1]).Duration
	}
	sink = s
}

// BenchmarkPreempt is one preemption query.
func BenchmarkPreempt(b *testing.B) {
	f := newBenchFixture(b, runtime.MethodLCA)
	r := f.resolver(b)
	b.ReportAllocs()
	b.ResetTimer()
	var s time.Duration
	for i := 0; i < b.N; i++ {
		s += r.Resolve(runtime.ActionPreempt, queuetree.None, f.pairs[i&(benchPairs-1)][1]).Duration
	}
	sink = s
}

// BenchmarkReclaimByName is one reclaim query by queue names (two
// Lookups more), comparable with the naive baseline's input.
func BenchmarkReclaimByName(b *testing.B) {
	f := newBenchFixture(b, runtime.MethodLCA)
	r := f.resolver(b)
	b.ReportAllocs()
	b.ResetTimer()
	var s time.Duration
	for i := 0; i < b.N; i++ {
		p := f.names[i&(benchPairs-1)]
		a, _ := f.tree.Lookup(p[0])
		v, _ := f.tree.Lookup(p[1])
		s += r.Resolve(runtime.ActionReclaim, a, v).Duration
	}
	sink = s
}

// BenchmarkNaiveReclaimLCA is the baseline: one LCA reclaim query the way a
// straightforward plugin resolves it (string-keyed map walks, path slices
// built per call), on the same tree and pairs as BenchmarkReclaimLCA.
func BenchmarkNaiveReclaimLCA(b *testing.B) {
	f := newBenchFixture(b, runtime.MethodLCA)
	naive := newNaive(f.cfg, f.queues)
	for _, bc := range []struct {
		name  string
		names [][2]string
	}{{"random", f.names}, {"same-top-level", f.iNames}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			var s time.Duration
			for i := 0; i < b.N; i++ {
				p := bc.names[i&(benchPairs-1)]
				d, _ := naive.Reclaim(p[0], p[1])
				s += d
			}
			sink = s
		})
	}
}

// BenchmarkNaivePreempt is the preemption baseline.
func BenchmarkNaivePreempt(b *testing.B) {
	f := newBenchFixture(b, runtime.MethodLCA)
	naive := newNaive(f.cfg, f.queues)
	b.ReportAllocs()
	b.ResetTimer()
	var s time.Duration
	for i := 0; i < b.N; i++ {
		d, _ := naive.Preempt(f.names[i&(benchPairs-1)][1])
		s += d
	}
	sink = s
}

// BenchmarkReclaimSweep16M resolves every (pending, running) pair of 4,000
// pending × 4,000 running jobs: 16,000,000 LCA reclaim queries per op, with
// no per-pair cache (KAI's job-pair cache, removed by KAI-Scheduler PR
// #1809, held about 16M entries at this scale).
func BenchmarkReclaimSweep16M(b *testing.B) {
	f := newBenchFixture(b, runtime.MethodLCA)
	r := f.resolver(b)
	b.ReportAllocs()
	b.ResetTimer()
	var s time.Duration
	for i := 0; i < b.N; i++ {
		for _, pq := range f.pending {
			for _, rq := range f.running {
				s += r.Resolve(runtime.ActionReclaim, pq, rq).Duration
			}
		}
	}
	sink = s
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(benchJobs*benchJobs), "ns/pair")
}

// BenchmarkReclaimDeep is the worst case of the climb: two 50,000-deep
// branches under one top-level queue, reclaimer and victim near the bottom
// of different branches, so c is 50,000 levels above the victim; the
// climb takes O(log depth) steps.
func BenchmarkReclaimDeep(b *testing.B) {
	const half = 50_000
	qs := []queuetree.Queue{{Name: "top"}}
	for br := 0; br < 2; br++ {
		prev := "top"
		for i := 0; i < half; i++ {
			name := fmt.Sprintf("%c%06d", 'a'+br, i)
			qs = append(qs, queuetree.Queue{Name: name, Parent: prev})
			prev = name
		}
	}
	tree, err := queuetree.New(qs)
	if err != nil {
		b.Fatal(err)
	}
	r, err := runtime.NewResolver(tree, runtime.Config{Queues: []runtime.QueueSetting{
		{Queue: "a000000", Reclaim: explicit(time.Minute)},
	}})
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	pairs := make([][2]queuetree.ID, benchPairs)
	for i := range pairs {
		a, _ := tree.Lookup(fmt.Sprintf("a%06d", half-1-rng.IntN(100)))
		bb, _ := tree.Lookup(fmt.Sprintf("b%06d", half-1-rng.IntN(100)))
		pairs[i] = [2]queuetree.ID{bb, a}
	}
	if got := r.Resolve(runtime.ActionReclaim, pairs[0][0], pairs[0][1]); got.SourceName != "a000000" {
		b.Fatalf("Reclaim = %v; want the setting of a000000", got)
	}
	b.ReportAllocs()
	b.ResetTimer()
	var s time.Duration
	for i := 0; i < b.N; i++ {
		p := pairs[i&(benchPairs-1)]
		s += r.Resolve(runtime.ActionReclaim, p[0], p[1]).Duration
	}
	sink = s
}

// BenchmarkNewResolver is the O(n) build on the 1,000-queue tree; its B/op
// is the resolver's whole memory (no per-pair state is ever added).
func BenchmarkNewResolver(b *testing.B) {
	f := newBenchFixture(b, runtime.MethodLCA)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := runtime.NewResolver(f.tree, f.cfg); err != nil {
			b.Fatal(err)
		}
	}
}

// topLevel returns the top-level queue above id (id itself at depth 1).
func topLevel(t *queuetree.Tree, id queuetree.ID) queuetree.ID {
	for t.Parent(id) != queuetree.Root {
		id = t.Parent(id)
	}
	return id
}
