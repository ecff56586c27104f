package requeue_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
)

// setWorld is the multi-victim scale world: n nominated over-runners of 1-4
// GPUs packed onto nodes of 8 GPUs (each node's jobs fill it), n/2 nodes
// in all (the nodes the victims do not fill run one 8-GPU job nobody
// nominated), and k pending contenders: 60% whole-node jobs (one 8-GPU
// task), 20% two-node gangs (two 8-GPU tasks), 20% 4-GPU jobs. A
// whole-node job needs every victim of a node (about 3), a gang those of
// two nodes, a 4-GPU job one to three victims. Victims ran 2-20 hours, a
// third checkpointed within the last hour; 5% are in cooldown and 5%
// protected by a filter.
func setWorld(tb testing.TB, n, k int) (*cluster.Model, requeue.EngineInput, requeue.EngineConfig, time.Time) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(uint64(n), uint64(k)+7))
	now := t0.Add(48 * time.Hour)
	c, nodes := scaleNodes(tb, n/2)
	run := func(id string, g int64, node string) {
		if err := c.AddJob(nil, cluster.Job{ID: id, Tasks: []cluster.Resources{gpu(g)}}); err != nil {
			tb.Fatal(err)
		}
		if err := c.Bind(nil, id, []string{node}); err != nil {
			tb.Fatal(err)
		}
	}
	in := requeue.EngineInput{Nominations: make([]requeue.VictimNomination, 0, n), Victims: make([]requeue.Victim, 0, n)}
	protected := victimSet{}
	for i := range nodes {
		if len(in.Victims) >= n {
			run(fmt.Sprintf("other-%05d", i), 8, nodes[i])
			continue
		}
		for left := int64(8); left > 0 && len(in.Victims) < n; {
			g := min(left, 1+rng.Int64N(4))
			left -= g
			id := fmt.Sprintf("victim-%06d", len(in.Victims))
			run(id, g, nodes[i])
			v := requeue.Victim{ID: id, Priority: int32(rng.IntN(4)), Start: now.Add(-time.Duration(2+rng.IntN(18)) * time.Hour),
				Expected: time.Hour, Resources: float64(g)}
			if rng.IntN(3) == 0 {
				v.LastCheckpoint = now.Add(-time.Duration(rng.IntN(60)) * time.Minute)
			}
			switch rng.IntN(20) {
			case 0:
				v.NotBefore = now.Add(10 * time.Minute)
			case 1:
				protected[id] = struct{}{}
			}
			in.Victims = append(in.Victims, v)
			in.Nominations = append(in.Nominations, requeue.VictimNomination{Job: id, Nominator: "expectedruntime"})
		}
	}
	for i := range k {
		id := fmt.Sprintf("pending-%05d", i)
		var tasks []cluster.Resources
		switch r := rng.IntN(10); {
		case r < 6:
			tasks = []cluster.Resources{gpu(8)}
		case r < 8:
			tasks = []cluster.Resources{gpu(8), gpu(8)}
		default:
			tasks = []cluster.Resources{gpu(4)}
		}
		if err := c.AddJob(nil, cluster.Job{ID: id, Tasks: tasks}); err != nil {
			tb.Fatal(err)
		}
		in.Contenders = append(in.Contenders, requeue.Contender{ID: id, Priority: int32(5 + rng.IntN(5)), Queued: now.Add(-time.Duration(rng.IntN(600)) * time.Minute)})
	}
	rng.Shuffle(len(in.Nominations), func(i, j int) { in.Nominations[i], in.Nominations[j] = in.Nominations[j], in.Nominations[i] })
	return c, in, requeue.EngineConfig{DefaultDelay: 30 * time.Minute, Filters: []requeue.VictimFilter{protected}}, now
}

// BenchmarkEngineSets runs one pass over the multi-victim world, growing
// nominations and contenders 10× at a time (the ns/op ratio between steps
// is the growth factor; linear is 10×), without hints and with them, and
// the baseline (evict-all-then-reprieve) at the smallest size.
func BenchmarkEngineSets(b *testing.B) {
	for _, size := range []struct{ n, k int }{{1000, 100}, {10_000, 1000}, {100_000, 10_000}} {
		base, in, cfg, now := setWorld(b, size.n, size.k)
		for _, r := range scaleRuns {
			b.Run(fmt.Sprintf("%dx%d/%s", size.n, size.k, r.name), func(b *testing.B) {
				benchPass(b, base, in, cfg, now, r.model)
			})
		}
		if size.n <= 1000 {
			b.Run(fmt.Sprintf("%dx%d/evict-all-reprieve", size.n, size.k), func(b *testing.B) {
				benchReference(b, base, in, cfg, now)
			})
		}
	}
}

// TestEngineSetWorld: on a small setWorld, most contenders are served by
// sets of several victims, every set is irreducible, the engine without
// hints and with them agree, and it serves at least 95% of the contenders
// evict-all-then-reprieve serves.
func TestEngineSetWorld(t *testing.T) {
	base, in, cfg, now := setWorld(t, 1000, 100)
	e, err := requeue.NewEngine(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := base.Clone()
	res, err := e.Run(now, in, plainModel{c})
	if err != nil {
		t.Fatal(err)
	}
	sizes := map[int]int{}
	replayState(t, base, res, func(before *cluster.Model, set []string, cn string) {
		checkIrreducible(t, before, set, cn)
		sizes[len(set)]++
	})
	multi := 0
	for s, n := range sizes {
		if s >= 2 {
			multi += n
		}
	}
	if res.Sets < 75 || multi < res.Sets/2 {
		t.Fatalf("%d sets, by size %v", res.Sets, sizes)
	}
	c2 := base.Clone()
	res2, err := e.Run(now, in, c2)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(res, res2, sameResult...); d != "" || !cmp.Equal(c.Snapshot(), c2.Snapshot()) {
		t.Fatalf("the hints changed the result (-none +hints):\n%s", d)
	}
	ref := referenceRun(now, cfg, in, plainModel{base.Clone()})
	if res.Sets*100 < ref.served*95 {
		t.Fatalf("%d sets, baseline %d", res.Sets, ref.served)
	}
	t.Logf("%d sets (baseline %d), by size %v; %d fit tests, %d Place calls (%d with hints)", res.Sets, ref.served, sizes, res.Attempts, res.Places, res2.Places)
}

// hopelessWorld is setWorld's cluster and victims with k contenders of
// distinct shapes that fit nowhere, even with every victim gone: each
// needs 9 GPUs on one node of 8 (and a distinct amount of memory, so
// that no two share a shape).
func hopelessWorld(tb testing.TB, n, k int) (*cluster.Model, requeue.EngineInput, requeue.EngineConfig, time.Time) {
	c, in, cfg, now := setWorld(tb, n, 0)
	for i := range k {
		id := fmt.Sprintf("hopeless-%05d", i)
		task := cluster.Resources{MilliCPU: 1000, Memory: int64(i + 1), GPU: 9}
		if err := c.AddJob(nil, cluster.Job{ID: id, Tasks: []cluster.Resources{task}}); err != nil {
			tb.Fatal(err)
		}
		in.Contenders = append(in.Contenders, requeue.Contender{ID: id, Priority: 9})
	}
	return c, in, cfg, now
}

// BenchmarkEngineHopeless: 10,000 hopeless contenders of distinct shapes
// cannot keep a pass from deciding every victim, within the default
// bounds, without hints and with them.
func BenchmarkEngineHopeless(b *testing.B) {
	base, in, cfg, now := hopelessWorld(b, 100_000, 10_000)
	for _, r := range scaleRuns {
		b.Run(fmt.Sprintf("100000x10000/%s", r.name), func(b *testing.B) {
			benchPass(b, base, in, cfg, now, r.model)
		})
	}
}

// TestEngineHopeless: with hopeless contenders of distinct shapes, every
// nominated job gets one outcome and none is committed: every victim not
// in cooldown is kept because no set of them made room.
func TestEngineHopeless(t *testing.T) {
	base, in, cfg, now := hopelessWorld(t, 4000, 1000)
	for _, r := range scaleRuns {
		e, _ := requeue.NewEngine(cfg)
		res, err := e.Run(now, in, r.model(base.Clone()))
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]int{}
		for _, o := range res.Outcomes {
			got[o.Kind.String()+"/"+o.Reason.String()]++
		}
		if len(res.Outcomes) != 4000 || res.Commits != 0 {
			t.Fatalf("%s: %d outcomes, %d commits: %v", r.name, len(res.Outcomes), res.Commits, got)
		}
		for k := range got {
			switch k {
			case "kept/no_fit", "skipped/cooldown":
			default:
				t.Errorf("%s: outcome %s", r.name, k)
			}
		}
		t.Logf("%s: %v, %d attempts, %d checks", r.name, got, res.Attempts, res.Checks)
	}
}
