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
// the victim order (and their domains at the front of the search) do not
// keep the evictable ones from being used: every evictable victim is
// committed within the default bounds, with the model's hints, with the
// locality hint alone, and with none; the hopeless ones are kept, with a
// reason that says what happened to them.
func TestEngineNoStarvationWithoutHints(t *testing.T) {
	c, in := starvationWorld(t)
	for _, tc := range []struct {
		name  string
		model func(*cluster.Model) requeue.Model
	}{
		{"no hints", func(c *cluster.Model) requeue.Model { return plainModel{c} }},
		{"cluster", func(c *cluster.Model) requeue.Model { return c }},
		{"localized", func(c *cluster.Model) requeue.Model { return locModel{c} }},
		{"localized, no fit bound", func(c *cluster.Model) requeue.Model { return locPlain{c} }},
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
					!slices.Contains([]eligibility.Reason{requeue.ReasonNoFit, requeue.ReasonCheaperSet, requeue.ReasonMaxVictimAttempts}, o.Reason)):
					t.Fatalf("hopeless victim: %+v", o)
				}
			}
			if err := m.Check(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// locPlain is the Cluster with the locality hint and no other.
type locPlain struct{ c *cluster.Model }

func (m locPlain) Evict(j *requeue.Journal, id string) error         { return m.c.Evict(j, id) }
func (m locPlain) Place(j *requeue.Journal, id string) (bool, error) { return m.c.Place(j, id) }
func (m locPlain) Domains(job string, dst []string) []string         { return locModel{m.c}.Domains(job, dst) }

// TestEngineMaxAttemptsPerVictim pins the per-victim bound at its edge: a
// victim takes part in at most that many failed set evaluations of
// contenders that some set lets fit, and the placements without eviction
// get the same bound per round.
func TestEngineMaxAttemptsPerVictim(t *testing.T) {
	// Two nodes of 4 GPUs: v (2 GPUs, cheap) next to k (2 GPUs, not a
	// victim) on n0, w (4 GPUs) on n1. c1..c3 need 4 GPUs: they fit with w
	// evicted, which the filter denies, never with v; c4 needs 2 (fits in
	// v's room).
	now := t0.Add(10 * time.Hour)
	world := func() (*cluster.Model, requeue.EngineInput) {
		c := gpuCluster(t, 2, fxJob{id: "v", gpus: []int64{2}, running: true}, fxJob{id: "k", gpus: []int64{2}, running: true},
			fxJob{id: "w", gpus: []int64{4}, running: true},
			fxJob{id: "c1", gpus: []int64{4}}, fxJob{id: "c2", gpus: []int64{4}}, fxJob{id: "c3", gpus: []int64{4}}, fxJob{id: "c4", gpus: []int64{2}})
		return c, requeue.EngineInput{Nominations: noms("x", "v", "w"),
			Victims:    []requeue.Victim{{ID: "v", Start: now.Add(-time.Hour)}, {ID: "w", Start: t0}},
			Contenders: []requeue.Contender{{ID: "c1", Priority: 9}, {ID: "c2", Priority: 8}, {ID: "c3", Priority: 7}, {ID: "c4", Priority: 6}}}
	}
	denyW := requeue.VictimFilterFunc(func(now time.Time, v *requeue.Victim, c *requeue.Contender) eligibility.Decision {
		return eligibility.Decision{Allowed: v.ID != "w", Reason: "protected"}
	})
	for _, tc := range []struct {
		name  string
		bound int
		want  requeue.Outcome
	}{
		// c1..c3's searches each fail once with v evicted (one group: w
		// fits, is denied, and v alone does not make room): three failures
		// for v; c4's search is its fourth.
		{"bound 4", 4, committedAt(now, "v", "c4")},
		{"bound 3: given up before c4", 3, keptFor("v", requeue.ReasonMaxVictimAttempts)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, in := world()
			e, err := requeue.NewEngine(requeue.EngineConfig{MaxAttemptsPerVictim: tc.bound, Filters: []requeue.VictimFilter{denyW}})
			if err != nil {
				t.Fatal(err)
			}
			res, err := e.Run(now, in, plainModel{c})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, outcomeOf(res, "v"), errPresence); d != "" {
				t.Fatalf("(-want +got):\n%s", d)
			}
		})
	}

	// Hopeless contenders (8 GPUs on nodes of 4: no set lets them fit,
	// though the search tried every eligible victim) do not use up the
	// victim's share: with a bound of 1, v is still there for c4.
	for _, mv := range modelViews {
		c := gpuCluster(t, 1, fxJob{id: "v", gpus: []int64{4}, running: true},
			fxJob{id: "c1", gpus: []int64{8}}, fxJob{id: "c2", gpus: []int64{8}}, fxJob{id: "c3", gpus: []int64{8}}, fxJob{id: "c4", gpus: []int64{4}})
		in := requeue.EngineInput{Nominations: noms("x", "v"), Victims: []requeue.Victim{{ID: "v"}},
			Contenders: []requeue.Contender{{ID: "c1", Priority: 9}, {ID: "c2", Priority: 8}, {ID: "c3", Priority: 7}, {ID: "c4", Priority: 6}}}
		e, _ := requeue.NewEngine(requeue.EngineConfig{MaxAttemptsPerVictim: 1})
		res, err := e.Run(t0, in, mv.view(c))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]requeue.Outcome{committedAt(t0, "v", "c4")}, res.Outcomes, errPresence); d != "" {
			t.Fatalf("%s: hopeless contenders (-want +got):\n%s", mv.name, d)
		}
	}

	// The placements without eviction: with a bound of 2 per round, b is
	// left untried after a's commit (n1 and n2 fail first), and tried on
	// its own before its set search; n1's and n2's failed searches are
	// hopeless (no set lets 8 GPUs fit), so they leave w's share whole
	// and b, which fits in w's room, is served with w.
	c := gpuCluster(t, 2, fxJob{id: "v", gpus: []int64{4}, running: true}, fxJob{id: "w", gpus: []int64{4}, running: true},
		fxJob{id: "a", gpus: []int64{4}}, fxJob{id: "n1", gpus: []int64{8}}, fxJob{id: "n2", gpus: []int64{8}}, fxJob{id: "b", gpus: []int64{4}})
	e, _ := requeue.NewEngine(requeue.EngineConfig{MaxAttemptsPerVictim: 2})
	res, err := e.Run(t0, requeue.EngineInput{Nominations: noms("x", "v", "w"), Victims: []requeue.Victim{{ID: "v"}, {ID: "w", Priority: 1}},
		Contenders: []requeue.Contender{{ID: "a", Priority: 9}, {ID: "n1", Priority: 8}, {ID: "n2", Priority: 7}, {ID: "b", Priority: 6}}},
		plainModel{c})
	if err != nil {
		t.Fatal(err)
	}
	want := []requeue.Outcome{committedAt(t0, "v", "a"), committedAt(t0, "w", "b")}
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

// TestEngineTwoVictimsOneContender: the limit of the single-victim engine
// is gone: a contender that needs two victims gone is served by evicting
// both, as one set; without sets both were kept with no_fit.
func TestEngineTwoVictimsOneContender(t *testing.T) {
	c := gpuCluster(t, 1, fxJob{id: "a", gpus: []int64{2}, running: true}, fxJob{id: "b", gpus: []int64{2}, running: true},
		fxJob{id: "big", gpus: []int64{4}})
	res, err := (&requeue.Engine{}).Run(t0, requeue.EngineInput{
		Nominations: noms("x", "a", "b"),
		Victims:     []requeue.Victim{{ID: "a"}, {ID: "b"}},
		Contenders:  []requeue.Contender{{ID: "big", Priority: 9}},
	}, c)
	if err != nil {
		t.Fatal(err)
	}
	want := []requeue.Outcome{committedSet(t0, "a", "big", "b"), committedSet(t0, "b", "big", "a")}
	if d := cmp.Diff(want, res.Outcomes, errPresence); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
	if !running(c, "big") || running(c, "a") || running(c, "b") {
		t.Fatalf("model %+v", c.Snapshot())
	}
}

// TestEngineMaxChecksPerVictimCountsIneligibleOnly: MaxChecksPerVictim
// counts only the examinations that found a victim not eligible. v is
// examined eligible for c1 (which takes the cheaper a), then refused by
// CanContend for c2: one ineligible look of the two allowed, so v is still
// open for c3.
func TestEngineMaxChecksPerVictimCountsIneligibleOnly(t *testing.T) {
	now := t0.Add(10 * time.Hour)
	c := nodeCluster(t, 2, placedJob{"a", []int64{8}, []string{"n0"}}, placedJob{"v", []int64{8}, []string{"n1"}},
		placedJob{id: "c1", gpus: []int64{8}}, placedJob{id: "c2", gpus: []int64{8}}, placedJob{id: "c3", gpus: []int64{8}})
	in := requeue.EngineInput{
		Nominations: noms("x", "a", "v"),
		Victims:     []requeue.Victim{{ID: "a", Start: now.Add(-time.Hour)}, {ID: "v", Start: t0}},
		Contenders:  []requeue.Contender{{ID: "c1", Priority: 5}, {ID: "c2", Priority: 4}, {ID: "c3", Priority: 3}},
	}
	e, err := requeue.NewEngine(requeue.EngineConfig{MaxChecksPerVictim: 2,
		CanContend: func(v *requeue.Victim, c *requeue.Contender) bool { return c.ID != "c2" && c.Priority > v.Priority }})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(now, in, plainModel{c})
	if err != nil {
		t.Fatal(err)
	}
	for cn, want := range map[string]string{"c1": "a", "c3": "v"} {
		if set, _ := engineSetFor(res, cn); !cmp.Equal(set, []string{want}) {
			t.Errorf("set for %s = %v, want [%s]: %+v", cn, set, want, res.Outcomes)
		}
	}
}

// outcomeOf returns job's outcome in res (the zero Outcome if none).
func outcomeOf(res requeue.EngineResult, job string) requeue.Outcome {
	for _, o := range res.Outcomes {
		if o.Job == job {
			return o
		}
	}
	return requeue.Outcome{}
}

// TestEngineHopelessContendersDoNotStarve: 250 higher-priority contenders
// of distinct shapes that fit nowhere, even with every victim evicted, do
// not use up the victims' shares of failed evaluations: the servable
// contender behind them is served.
func TestEngineHopelessContendersDoNotStarve(t *testing.T) {
	now := t0.Add(10 * time.Hour)
	jobs := []placedJob{{"v0", []int64{8}, []string{"n0"}}, {"v1", []int64{8}, []string{"n1"}}, {id: "ok", gpus: []int64{8}}}
	in := requeue.EngineInput{Nominations: noms("x", "v0", "v1"),
		Victims:    []requeue.Victim{{ID: "v0", Start: t0}, {ID: "v1", Start: t0}},
		Contenders: []requeue.Contender{{ID: "ok", Priority: 5}}}
	for i := range 250 { // default MaxAttemptsPerVictim / 2 would do with the old rule
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

// TestEngineHopelessShapeCachedWithFilters: same-shape contenders that no
// set lets fit are searched once per state even with a filter configured
// (the filter is never asked: no set fits), and do not starve the
// servable contender behind them.
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
	if asked != 0 {
		t.Errorf("filter asked %d times about hopeless contenders, want 0", asked)
	}
}
