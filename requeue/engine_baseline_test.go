package requeue_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
)

// gangWorld is a random world of whole-node and multi-node gangs: 4 to 16
// nodes of 8 GPUs filled with running jobs of 1, 2, 4 or 8 GPUs and
// two-node gangs, 70% of them nominated and the rest blockers nobody
// nominated, and 1 to 12 contenders: whole-node jobs, two-node gangs, two
// 4-GPU tasks, 4-GPU and 1-GPU jobs.
func gangWorld(tb testing.TB, seed uint64) (*cluster.Model, requeue.EngineInput, time.Time) {
	rng := rand.New(rand.NewPCG(seed, 27))
	now := t0.Add(48 * time.Hour)
	c, nodes := scaleNodes(tb, 4+rng.IntN(13))
	var in requeue.EngineInput
	run := func(id string, tasks []cluster.Resources, on []string) bool {
		if err := c.AddJob(nil, cluster.Job{ID: id, Tasks: tasks}); err != nil {
			tb.Fatal(err)
		}
		return c.Bind(nil, id, on) == nil
	}
	n := 0
	for i, node := range nodes {
		for left := int64(8); left > 0; {
			n++
			id := fmt.Sprintf("j%03d", n)
			g := min(left, []int64{1, 2, 4, 8}[rng.IntN(4)])
			tasks, on := []cluster.Resources{gpu(g)}, []string{node}
			if g >= 4 && i+1 < len(nodes) && rng.IntN(4) == 0 {
				tasks, on = append(tasks, gpu(g)), append(on, nodes[i+1]) // a gang over two nodes
			}
			if !run(id, tasks, on) {
				tasks, on = tasks[:1], on[:1]
				if !run(id+"s", tasks, on) {
					break
				}
				id += "s"
			}
			left -= g
			if rng.IntN(10) < 3 {
				continue // a blocker
			}
			v := requeue.Victim{ID: id, Priority: int32(rng.IntN(4)), Start: now.Add(-time.Duration(1+rng.IntN(30)) * time.Hour),
				Resources: float64(g) * float64(len(tasks))}
			if rng.IntN(3) == 0 {
				v.LastCheckpoint = now.Add(-time.Duration(rng.IntN(120)) * time.Minute)
			}
			in.Victims = append(in.Victims, v)
			in.Nominations = append(in.Nominations, requeue.VictimNomination{Job: id, Nominator: "x"})
		}
	}
	shapes := [][]int64{{8}, {8, 8}, {4, 4}, {4}, {1}}
	for i := range 1 + rng.IntN(12) {
		id := fmt.Sprintf("p%02d", i)
		var tasks []cluster.Resources
		for _, g := range shapes[rng.IntN(len(shapes))] {
			tasks = append(tasks, gpu(g))
		}
		if err := c.AddJob(nil, cluster.Job{ID: id, Tasks: tasks}); err != nil {
			tb.Fatal(err)
		}
		in.Contenders = append(in.Contenders, requeue.Contender{ID: id, Priority: int32(2 + rng.IntN(5)), Queued: now.Add(-time.Duration(rng.IntN(90)) * time.Minute)})
	}
	return c, in, now
}

// TestEngineServesAsBaseline: over 300 random gang worlds, the engine
// without hints serves at least 95% of the contenders that
// evict-all-then-reprieve serves (in all, and it defers nothing), with
// irreducible sets; the worlds where the two serve different numbers are
// counted and logged.
func TestEngineServesAsBaseline(t *testing.T) {
	served, baseline, differ, deferred := 0, 0, 0, 0
	for seed := range uint64(300) {
		c, in, now := gangWorld(t, seed)
		res, err := new(requeue.Engine).Run(now, in, plainModel{c.Clone()})
		if err != nil {
			t.Fatal(err)
		}
		ref := referenceRun(now, requeue.EngineConfig{}, in, plainModel{c.Clone()})
		served, baseline = served+res.Sets, baseline+ref.served
		if res.Sets != ref.served {
			differ++
		}
		for _, o := range res.Outcomes {
			if o.Kind == requeue.OutcomeDeferred {
				deferred++
			}
		}
		replayState(t, c, res, func(before *cluster.Model, set []string, cn string) {
			checkIrreducible(t, before, set, cn)
		})
	}
	t.Logf("served %d, evict-all-then-reprieve %d; %d of 300 worlds differ; %d deferred", served, baseline, differ, deferred)
	if served*100 < baseline*95 || deferred != 0 || baseline < 300 {
		t.Errorf("served %d of the baseline's %d, %d deferred", served, baseline, deferred)
	}
}
