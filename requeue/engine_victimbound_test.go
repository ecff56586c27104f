package requeue_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
)

// starvationWorld: 30 victims at the front of the victim order whose
// eviction frees 1 GPU next to a 7-GPU job (hopeless: every contender
// needs a whole 8-GPU node), 100 victims that each hold a whole node, and
// 4,000 contenders of 8 GPUs. Without the model's hints, each hopeless
// victim costs one failed attempt per contender.
func starvationWorld(t testing.TB) (*cluster.Model, requeue.EngineInput) {
	const hopeless, good, k = 30, 100, 4000
	var nodes []cluster.Node
	for i := range hopeless + good {
		nodes = append(nodes, cluster.Node{Name: fmt.Sprintf("n%04d", i), Capacity: cluster.Resources{GPU: 8}})
	}
	c, err := cluster.New(nodes)
	if err != nil {
		t.Fatal(err)
	}
	var in requeue.EngineInput
	run := func(id string, gpus int64, node string) {
		if err := c.AddJob(nil, cluster.Job{ID: id, Tasks: []cluster.Resources{{GPU: gpus}}}); err != nil {
			t.Fatal(err)
		}
		if err := c.Bind(nil, id, []string{node}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range hopeless {
		id := fmt.Sprintf("h%03d", i)
		run(id, 1, nodes[i].Name)
		run(fmt.Sprintf("o%03d", i), 7, nodes[i].Name)
		in.Nominations = append(in.Nominations, requeue.VictimNomination{Job: id, Nominator: "x"})
		in.Victims = append(in.Victims, requeue.Victim{ID: id, Priority: 0})
	}
	for i := range good {
		id := fmt.Sprintf("g%03d", i)
		run(id, 8, nodes[hopeless+i].Name)
		in.Nominations = append(in.Nominations, requeue.VictimNomination{Job: id, Nominator: "x"})
		in.Victims = append(in.Victims, requeue.Victim{ID: id, Priority: 1})
	}
	for i := range k {
		id := fmt.Sprintf("p%05d", i)
		if err := c.AddJob(nil, cluster.Job{ID: id, Tasks: []cluster.Resources{{GPU: 8}}}); err != nil {
			t.Fatal(err)
		}
		in.Contenders = append(in.Contenders, requeue.Contender{ID: id, Priority: 5})
	}
	return c, in
}

// TestEngineNoStarvationWithoutHints: with the zero config and a model
// without hints, hopeless victims at the front of the order no longer eat
// the pass's attempts: each gets up to MaxAttemptsPerVictim failed
// attempts, is kept with ReasonMaxVictimAttempts, and the pass goes on to
// commit every evictable victim. With the reference model (package cluster)'s hints the
// hopeless ones are kept with ReasonNoFit without an attempt.
func TestEngineNoStarvationWithoutHints(t *testing.T) {
	c, in := starvationWorld(t)
	for _, tc := range []struct {
		name     string
		model    func(*cluster.Model) requeue.Model
		hopeless requeue.OutcomeKind
		reason   string
	}{
		{"no hints", func(c *cluster.Model) requeue.Model { return plainModel{c} }, requeue.OutcomeKept, string(requeue.ReasonMaxVictimAttempts)},
		{"cluster", func(c *cluster.Model) requeue.Model { return c }, requeue.OutcomeKept, string(requeue.ReasonNoFit)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var e requeue.Engine
			m := c.Clone()
			res, err := e.Run(t0, in, tc.model(m))
			if err != nil {
				t.Fatal(err)
			}
			if res.Commits != 100 || res.Attempts > requeue.DefaultMaxAttempts {
				t.Fatalf("%d commits in %d attempts, want 100 commits within %d", res.Commits, res.Attempts, requeue.DefaultMaxAttempts)
			}
			got := map[string]int{}
			for _, o := range res.Outcomes {
				got[o.Kind.String()+"/"+string(o.Reason)]++
			}
			want := map[string]int{"committed/committed": 100, tc.hopeless.String() + "/" + tc.reason: 30}
			if d := cmp.Diff(want, got); d != "" {
				t.Fatalf("outcomes (-want +got):\n%s", d)
			}
			if err := m.Check(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestEngineMaxAttemptsPerVictim pins the per-victim bound at its edge:
// the failed attempts it allows, in a victim's resources and in the
// placements without eviction, and what a victim gets when the bound
// stops the engine short.
func TestEngineMaxAttemptsPerVictim(t *testing.T) {
	// One node held by v. c1..c3 need 8 GPUs (never fit), c4 needs 4 (fits
	// in v's resources only).
	world := func() (*cluster.Model, requeue.EngineInput) {
		c := gpuCluster(t, 1, fxJob{id: "v", gpus: []int64{4}, running: true},
			fxJob{id: "c1", gpus: []int64{8}}, fxJob{id: "c2", gpus: []int64{8}}, fxJob{id: "c3", gpus: []int64{8}}, fxJob{id: "c4", gpus: []int64{4}})
		return c, requeue.EngineInput{Nominations: noms("x", "v"), Victims: []requeue.Victim{{ID: "v"}},
			Contenders: []requeue.Contender{{ID: "c1", Priority: 9}, {ID: "c2", Priority: 8}, {ID: "c3", Priority: 7}, {ID: "c4", Priority: 6}}}
	}
	for _, tc := range []struct {
		name  string
		model func(*cluster.Model) requeue.Model
		bound int
		want  requeue.Outcome
	}{
		// Without hints, the placements without eviction try all four (4
		// failures), then v's resources, with a bound of their own: c1..c3
		// fail, c4 fits (3 failures).
		{"no hints, bound 4", func(c *cluster.Model) requeue.Model { return plainModel{c} }, 4, committedAt(t0, "v", "c4")},
		{"no hints, bound 3: c4 untried without eviction", func(c *cluster.Model) requeue.Model { return plainModel{c} }, 3, keptFor("v", requeue.ReasonMaxVictimAttempts)},
		// With a fit bound that rules out every placement without an
		// eviction, only v's resources cost attempts: after 3 failures no
		// attempt is made, even one that would have fitted.
		{"victim's resources, bound 4", func(c *cluster.Model) requeue.Model { return evictFirst{plainModel{c}} }, 4, committedAt(t0, "v", "c4")},
		{"victim's resources, bound 3: c4 untried", func(c *cluster.Model) requeue.Model { return evictFirst{plainModel{c}} }, 3, keptFor("v", requeue.ReasonMaxVictimAttempts)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, in := world()
			e, err := requeue.NewEngine(requeue.EngineConfig{MaxAttemptsPerVictim: tc.bound})
			if err != nil {
				t.Fatal(err)
			}
			res, err := e.Run(t0, in, tc.model(c))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff([]requeue.Outcome{tc.want}, res.Outcomes, errPresence); d != "" {
				t.Fatalf("(-want +got):\n%s", d)
			}
		})
	}

	// A victim the bound stops after a placement is committed with it;
	// the next victim gets its own bound.
	c := gpuCluster(t, 2, fxJob{id: "v", gpus: []int64{4}, running: true}, fxJob{id: "w", gpus: []int64{4}, running: true},
		fxJob{id: "a", gpus: []int64{4}}, fxJob{id: "n1", gpus: []int64{8}}, fxJob{id: "n2", gpus: []int64{8}}, fxJob{id: "b", gpus: []int64{4}})
	e, _ := requeue.NewEngine(requeue.EngineConfig{MaxAttemptsPerVictim: 2})
	res, err := e.Run(t0, requeue.EngineInput{Nominations: noms("x", "v", "w"), Victims: []requeue.Victim{{ID: "v"}, {ID: "w", Priority: 1}},
		Contenders: []requeue.Contender{{ID: "a", Priority: 9}, {ID: "n1", Priority: 8}, {ID: "n2", Priority: 7}, {ID: "b", Priority: 6}}},
		evictFirst{plainModel{c}})
	if err != nil {
		t.Fatal(err)
	}
	// v: a fits, n1 and n2 fail (2 failures): committed with a, b left
	// untried. w: its own bound; n1 and n2 fail again, and b (which would
	// fit) is left untried.
	want := []requeue.Outcome{committedAt(t0, "v", "a"), keptFor("w", requeue.ReasonMaxVictimAttempts)}
	if d := cmp.Diff(want, res.Outcomes, errPresence); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
}

func TestEngineConfigMaxAttemptsPerVictim(t *testing.T) {
	if err := (requeue.EngineConfig{MaxAttemptsPerVictim: -1}).Validate(); err == nil {
		t.Fatal("negative MaxAttemptsPerVictim accepted")
	}
	if _, err := requeue.NewEngine(requeue.EngineConfig{MaxAttemptsPerVictim: 1}); err != nil {
		t.Fatal(err)
	}
}

// TestEngineOneVictimPerContender pins a limit of the design: an eviction
// must make room for a contender on its own. A contender that needs two
// victims gone is never served; both victims are kept.
func TestEngineOneVictimPerContender(t *testing.T) {
	c := gpuCluster(t, 1, fxJob{id: "a", gpus: []int64{2}, running: true}, fxJob{id: "b", gpus: []int64{2}, running: true},
		fxJob{id: "big", gpus: []int64{4}})
	before := c.Snapshot()
	res, err := (&requeue.Engine{}).Run(t0, requeue.EngineInput{
		Nominations: noms("x", "a", "b"),
		Victims:     []requeue.Victim{{ID: "a"}, {ID: "b"}},
		Contenders:  []requeue.Contender{{ID: "big", Priority: 9}},
	}, c)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]requeue.Outcome{keptFor("a", requeue.ReasonNoFit), keptFor("b", requeue.ReasonNoFit)}, res.Outcomes, errPresence); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
	if d := cmp.Diff(before, c.Snapshot()); d != "" {
		t.Fatalf("model changed (-before +after):\n%s", d)
	}
}
