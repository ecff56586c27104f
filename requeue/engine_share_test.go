package requeue_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
	"github.com/tenurepolicy/tenure/requeue/internal/clustercheck"
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

// TestEngineNoStarvationWithoutHints: hopeless victims at the front of
// the victim order do not keep the evictable ones from being used: every
// evictable victim is committed within the default bounds, with the
// model's hints and without; the hopeless ones are kept, with a reason
// that says what happened to them.
func TestEngineNoStarvationWithoutHints(t *testing.T) {
	c, in := starvationWorld(t)
	for _, tc := range []struct {
		name  string
		model func(*cluster.Model) requeue.Model
	}{
		{"no hints", func(c *cluster.Model) requeue.Model { return plainModel{c} }},
		{"cluster", func(c *cluster.Model) requeue.Model { return c }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var e requeue.Engine
			m := c.Clone()
			res, err := e.Run(t0, in, tc.model(m))
			if err != nil {
				t.Fatal(err)
			}
			if res.Commits != 100 || res.Sets != 100 || res.Attempts > engineDefaults.MaxAttempts {
				t.Fatalf("%d commits (%d sets) in %d attempts, want 100 within %d", res.Commits, res.Sets, res.Attempts, engineDefaults.MaxAttempts)
			}
			for _, o := range res.Outcomes {
				switch {
				case o.Job[0] == 'g' && o.Kind != requeue.OutcomeCommitted:
					t.Fatalf("evictable victim: %+v", o)
				case o.Job[0] == 'h' && (o.Kind != requeue.OutcomeKept ||
					!slices.Contains([]eligibility.Reason{eligibility.Reason("no_fit"), eligibility.Reason("cheaper_set"), eligibility.Reason("no_contender")}, o.Reason)):
					t.Fatalf("hopeless victim: %+v", o)
				}
			}
			if err := clustercheck.Check(m); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestEngineHopelessContendersDoNotStarve: 250 higher-priority contenders
// of distinct shapes that fit nowhere, even with every victim evicted, do
// not use up the pass: the servable contender behind them is served.
func TestEngineHopelessContendersDoNotStarve(t *testing.T) {
	now := t0.Add(10 * time.Hour)
	jobs := []placedJob{{"v0", []int64{8}, []string{"n0"}}, {"v1", []int64{8}, []string{"n1"}}, {id: "ok", gpus: []int64{8}}}
	in := requeue.EngineInput{Nominations: noms("x", "v0", "v1"),
		Victims:    []requeue.Victim{{ID: "v0", Start: t0}, {ID: "v1", Start: t0}},
		Contenders: []requeue.Contender{{ID: "ok", Priority: 5}}}
	for i := range 250 {
		id := fmt.Sprint("h", i)
		jobs = append(jobs, placedJob{id: id, gpus: []int64{int64(17 + i)}}) // more than the cluster's 16 GPUs
		in.Contenders = append(in.Contenders, requeue.Contender{ID: id, Priority: 9})
	}
	for _, mv := range modelViews {
		res, err := new(requeue.Engine).Run(now, in, mv.view(nodeCluster(t, 2, jobs...)))
		if err != nil {
			t.Fatal(err)
		}
		if set, _ := engineSetFor(res, "ok"); len(set) != 1 {
			t.Errorf("%s: ok not served: %+v", mv.name, res.Outcomes)
		}
	}
}

// TestEngineHopelessShapeCachedWithFilters: same-class contenders that no
// set lets fit are searched once per state even with a filter configured
// (the filter is asked about the first one's victims only), and do not
// starve the servable contender behind them.
func TestEngineHopelessShapeCachedWithFilters(t *testing.T) {
	now := t0.Add(10 * time.Hour)
	run := func(filters []requeue.VictimFilter) requeue.EngineResult {
		jobs := []placedJob{{"v0", []int64{8}, []string{"n0"}}, {"v1", []int64{8}, []string{"n1"}}, {id: "ok", gpus: []int64{8}}}
		in := requeue.EngineInput{Nominations: noms("x", "v0", "v1"),
			Victims:    []requeue.Victim{{ID: "v0", Start: t0}, {ID: "v1", Start: t0}},
			Contenders: []requeue.Contender{{ID: "ok", Priority: 5}}}
		for i := range 300 {
			id := fmt.Sprint("h", i)
			jobs = append(jobs, placedJob{id: id, gpus: []int64{8, 8, 8}}) // 24 GPUs of 16
			in.Contenders = append(in.Contenders, requeue.Contender{ID: id, Priority: 9})
		}
		e, err := requeue.NewEngine(requeue.EngineConfig{Filters: filters})
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.Run(now, in, nodeCluster(t, 2, jobs...))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	asked := 0
	allowAll := requeue.VictimFilterFunc(func(_ time.Time, _ *requeue.Victim, c *requeue.Contender) eligibility.Decision {
		if c.ID != "ok" {
			asked++
		}
		return eligibility.Decision{Allowed: true}
	})
	without, with := run(nil), run([]requeue.VictimFilter{allowAll})
	if with.Checks != without.Checks || with.Attempts != without.Attempts {
		t.Errorf("checks/attempts with an allow-all filter %d/%d, without %d/%d: the shape cache is off", with.Checks, with.Attempts, without.Checks, without.Attempts)
	}
	if set, _ := engineSetFor(with, "ok"); len(set) != 1 {
		t.Errorf("ok not served: %+v", with.Outcomes)
	}
	// The first hopeless contender's search asks about both victims; the
	// other 299 are tested against its stack, without a filter call.
	if asked != 2 {
		t.Errorf("filter asked %d times about hopeless contenders, want 2", asked)
	}
}

// TestEngineHopelessAheadWithSmallMaxChecks (issue: a contender no set can
// serve must not use up the pass for the ones behind it): 1,000
// contenders of 17 GPUs, of distinct shapes, ahead of a 16-GPU one that
// one victim serves, with MaxChecks lowered to 100,100: the 16-GPU one is
// served in every view of the model, and nothing is deferred.
func TestEngineHopelessAheadWithSmallMaxChecks(t *testing.T) {
	now := t0.Add(10 * time.Hour)
	var jobs []placedJob
	in := requeue.EngineInput{Nominations: noms("x", "v"), Victims: []requeue.Victim{{ID: "v", Start: t0}}}
	jobs = append(jobs, placedJob{"v", []int64{8, 8}, []string{"n0", "n1"}}, placedJob{id: "ok", gpus: []int64{8, 8}})
	in.Contenders = append(in.Contenders, requeue.Contender{ID: "ok", Priority: 5})
	for i := range 1000 {
		id := fmt.Sprintf("h%04d", i)
		jobs = append(jobs, placedJob{id: id, gpus: []int64{8, 9}}) // a 9-GPU task fits no node
		in.Contenders = append(in.Contenders, requeue.Contender{ID: id, Priority: 9, Queued: t0.Add(time.Duration(i) * time.Second)})
	}
	for _, mv := range modelViews {
		e, _ := requeue.NewEngine(requeue.EngineConfig{MaxChecks: 100_100})
		res, err := e.Run(now, in, mv.view(nodeCluster(t, 2, jobs...)))
		if err != nil {
			t.Fatal(err)
		}
		if set, _ := engineSetFor(res, "ok"); len(set) != 1 || res.Stop != "" || res.NoSet != 1000 || res.Untried != 0 {
			t.Errorf("%s: ok's set %v, stop %q, no set %d, untried %d: %+v", mv.name, set, res.Stop, res.NoSet, res.Untried, res.Outcomes)
		}
	}
}

// TestEngineFillBoundCountsEveryContender pins the first counter-example
// of "hints change cost, never answers": on one 8-GPU node, victim v (4
// GPUs, priority 0), 500 contenders of 9 GPUs (priority 10), m (8 GPUs,
// priority 5) and l (4 GPUs, priority 1, fits as things are). The first
// round of placements without eviction stops after MaxFillFailures (500)
// failed fit tests, whether Place or a hint answered them, so it never
// reaches l; m, served before l in contender order, takes v. Every view of
// the model decides the same.
func TestEngineFillBoundCountsEveryContender(t *testing.T) {
	now := t0.Add(10 * time.Hour)
	jobs := []placedJob{{"v", []int64{4}, []string{"n0"}}, {id: "m", gpus: []int64{8}}, {id: "l", gpus: []int64{4}}}
	in := requeue.EngineInput{Nominations: noms("x", "v"), Victims: []requeue.Victim{{ID: "v", Start: t0}},
		Contenders: []requeue.Contender{{ID: "m", Priority: 5}, {ID: "l", Priority: 1}}}
	for i := range 500 {
		id := fmt.Sprintf("big%03d", i)
		jobs = append(jobs, placedJob{id: id, gpus: []int64{9}})
		in.Contenders = append(in.Contenders, requeue.Contender{ID: id, Priority: 10})
	}
	for _, mv := range modelViews {
		c := nodeCluster(t, 1, jobs...)
		res, err := new(requeue.Engine).Run(now, in, mv.view(c))
		if err != nil {
			t.Fatal(err)
		}
		if set, _ := engineSetFor(res, "m"); !cmp.Equal(set, []string{"v"}) || running(c, "l") || len(res.FitWithoutEviction) != 0 {
			t.Errorf("%s: m's set %v, l running %v, free fits %v", mv.name, set, running(c, "l"), res.FitWithoutEviction)
		}
	}
}

// TestEngineUnusableVictimSameInEveryView pins the second counter-example:
// a victim no contender may evict (its priority is the highest) is kept
// no_contender, with a Shaper and without one.
func TestEngineUnusableVictimSameInEveryView(t *testing.T) {
	now := t0.Add(10 * time.Hour)
	jobs := []placedJob{{"v", []int64{8}, []string{"n0"}}}
	in := requeue.EngineInput{Nominations: noms("x", "v"), Victims: []requeue.Victim{{ID: "v", Start: t0, Priority: 9}}}
	for i := range 3000 {
		id := fmt.Sprintf("p%04d", i)
		jobs = append(jobs, placedJob{id: id, gpus: []int64{8}})
		in.Contenders = append(in.Contenders, requeue.Contender{ID: id, Priority: 5})
	}
	for _, mv := range modelViews {
		res, err := new(requeue.Engine).Run(now, in, mv.view(nodeCluster(t, 1, jobs...)))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]requeue.Outcome{keptFor("v", eligibility.Reason("no_contender"))}, res.Outcomes, errPresence); d != "" {
			t.Errorf("%s (-want +got):\n%s", mv.name, d)
		}
	}
}

// TestEngineEveryStopVisible: a pass that MaxAttempts stops before any
// victim could be deferred says so: Stop names the bound and Untried
// counts the contenders whose turn never came.
func TestEngineEveryStopVisible(t *testing.T) {
	now := t0.Add(10 * time.Hour)
	jobs := []placedJob{{"v", []int64{8}, []string{"n0"}}}
	in := requeue.EngineInput{}
	for i := range 10 {
		id := fmt.Sprintf("p%02d", i)
		jobs = append(jobs, placedJob{id: id, gpus: []int64{8}})
		in.Contenders = append(in.Contenders, requeue.Contender{ID: id, Priority: 5})
	}
	e, _ := requeue.NewEngine(requeue.EngineConfig{MaxAttempts: 3, MaxFillFailures: 1})
	res, err := e.Run(now, in, plainModel{nodeCluster(t, 1, jobs...)})
	if err != nil {
		t.Fatal(err)
	}
	// The first round fails once (p00) and stops; p00's turn: it is known
	// not to fit, and there is no victim (no set); p01, p02: one fit test
	// each, no set; p03: the bound, so p03 to p09 are untried.
	if res.Stop != eligibility.Reason("max_attempts") || res.Untried != 7 || res.NoSet != 3 || len(res.Outcomes) != 0 {
		t.Errorf("stop %q, untried %d, no set %d, outcomes %v", res.Stop, res.Untried, res.NoSet, res.Outcomes)
	}
}

// TestEngineHopelessOverShare: 2,000 hopeless contenders over 20,000
// victims with MaxChecks 1,000,000 (a share of 500 examinations each, far
// fewer than one search of the whole list): the first search to reach its
// share is tested once with every victim of its class evicted, at the
// pass's expense; no set serves it, and the others are tested against the
// same stack. Every contender is decided (no set), nothing is deferred.
func TestEngineHopelessOverShare(t *testing.T) {
	base, in, cfg, now := hopelessWorld(t, 20_000, 2000)
	cfg.MaxChecks = 1_000_000
	for _, mv := range modelViews[:2] {
		e, _ := requeue.NewEngine(cfg)
		res, err := e.Run(now, in, mv.view(base.Clone()))
		if err != nil {
			t.Fatal(err)
		}
		deferred := 0
		for _, o := range res.Outcomes {
			if o.Kind == requeue.OutcomeDeferred {
				deferred++
			}
		}
		if res.NoSet != 2000 || res.OverShare != 0 || res.Stop != "" || deferred != 0 || res.Checks > 100_000 {
			t.Errorf("%s: no set %d, over share %d, stop %q, %d deferred, %d checks", mv.name, res.NoSet, res.OverShare, res.Stop, deferred, res.Checks)
		}
	}
}
