package requeue_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
)

// capBound is the Cluster with its locality hint and its capacity bound
// (requeue.CapacityBounder) alone: every accumulation for a contender it
// rules out evicts its victims once, to meet their Evict errors.
type capBound struct{ c *cluster.Model }

func (m capBound) Evict(j *requeue.Journal, id string) error         { return m.c.Evict(j, id) }
func (m capBound) Place(j *requeue.Journal, id string) (bool, error) { return m.c.Place(j, id) }
func (m capBound) Domains(job string, dst []string) []string         { return m.c.Domains(job, dst) }
func (m capBound) MayEverFit(job string) bool                        { return m.c.MayEverFit(job) }

// capPlain is the Cluster with its capacity bound alone (one group).
type capPlain struct{ c *cluster.Model }

func (m capPlain) Evict(j *requeue.Journal, id string) error         { return m.c.Evict(j, id) }
func (m capPlain) Place(j *requeue.Journal, id string) (bool, error) { return m.c.Place(j, id) }
func (m capPlain) MayEverFit(job string) bool                        { return m.c.MayEverFit(job) }

// noCapBound is the Cluster with every hint but the capacity bound; it
// counts the Evict and MayFitAfter calls in n, when not nil.
type noCapBound struct {
	c *cluster.Model
	n *calls
}

type calls struct{ evict, setBound, place int }

func (m noCapBound) Evict(j *requeue.Journal, id string) error {
	if m.n != nil {
		m.n.evict++
	}
	return m.c.Evict(j, id)
}

func (m noCapBound) Place(j *requeue.Journal, id string) (bool, error) {
	if m.n != nil {
		m.n.place++
	}
	return m.c.Place(j, id)
}

func (m noCapBound) Shape(job string) (string, bool)             { return m.c.Shape(job) }
func (m noCapBound) MayFit(v string, jobs []string, fits []bool) { m.c.MayFit(v, jobs, fits) }
func (m noCapBound) Domains(job string, dst []string) []string   { return m.c.Domains(job, dst) }
func (m noCapBound) MayFitAfter(vs []string, job string) bool {
	if m.n != nil {
		m.n.setBound++
	}
	return m.c.MayFitAfter(vs, job)
}

// withCapBound is noCapBound with the capacity bound.
type withCapBound struct{ noCapBound }

func (m withCapBound) MayEverFit(job string) bool { return m.c.MayEverFit(job) }

// TestEngineCapacityBoundSettlesHopeless: with the capacity bound, the
// searches of contenders that fit nowhere ask the model nothing (no
// MayFitAfter, no Place) and evict each victim at most once, and the pass
// decides every victim as it does without the bound.
func TestEngineCapacityBoundSettlesHopeless(t *testing.T) {
	base, in, cfg, now := hopelessWorld(t, 2000, 200)
	var results []requeue.EngineResult
	var n [2]calls
	for i, model := range []requeue.Model{withCapBound{noCapBound{base.Clone(), &n[0]}}, noCapBound{base.Clone(), &n[1]}} {
		e, _ := requeue.NewEngine(cfg)
		res, err := e.Run(now, in, model)
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, res)
		t.Logf("model %d: %+v, %d examinations", i, n[i], res.Checks)
	}
	if n[0].setBound != 0 || n[0].place != 0 || n[0].evict > 2000 || n[1].setBound == 0 {
		t.Fatalf("calls with the capacity bound %+v, without %+v; want no MayFitAfter or Place and at most one Evict per victim", n[0], n[1])
	}
	if d := cmp.Diff(results[1].Outcomes, results[0].Outcomes, errPresence); d != "" {
		t.Fatalf("the capacity bound changed the outcomes (-without +with):\n%s", d)
	}
	// One question per contender and one eviction per victim, in place of
	// a question per accumulation.
	if results[0].Checks > results[1].Checks+200+2000 {
		t.Fatalf("%d examinations with the capacity bound, %d without", results[0].Checks, results[1].Checks)
	}
}

// TestEngineCapacityBoundMeetsEvictErrors: a nominated job that does not
// run, looked at only for a contender the capacity bound rules out, is
// skipped with ReasonEvictError as without the bound; the evictable one
// beside it is kept with ReasonNoFit; the contender is asked about once
// (one examination) and never placed.
func TestEngineCapacityBoundMeetsEvictErrors(t *testing.T) {
	c := gpuCluster(t, 1, fxJob{id: "v", gpus: []int64{2}, running: true}, fxJob{id: "idle", gpus: []int64{2}}, fxJob{id: "huge", gpus: []int64{5}})
	in := requeue.EngineInput{
		Nominations: noms("x", "v", "idle"),
		Victims:     []requeue.Victim{{ID: "v"}, {ID: "idle"}},
		Contenders:  []requeue.Contender{{ID: "huge", Priority: 9}},
	}
	var got []string
	for _, model := range []requeue.Model{capPlain{c.Clone()}, capBound{c.Clone()}, plainModel{c.Clone()}} {
		e, _ := requeue.NewEngine(requeue.EngineConfig{})
		res, err := e.Run(t0, in, model)
		if err != nil {
			t.Fatal(err)
		}
		reasons := map[string]eligibility.Reason{}
		for _, o := range res.Outcomes {
			reasons[o.Job] = o.Reason
		}
		if reasons["idle"] != requeue.ReasonEvictError || reasons["v"] != requeue.ReasonNoFit {
			t.Fatalf("%T: outcomes %+v", model, res.Outcomes)
		}
		if _, plain := model.(plainModel); !plain && res.Attempts != 0 {
			t.Fatalf("%T: %d placement attempts for a contender the capacity bound rules out", model, res.Attempts)
		}
		got = append(got, fmt.Sprint(res.Outcomes))
	}
	if got[0] != got[1] || got[0] != got[2] {
		t.Fatalf("outcomes differ:\n%s\n%s\n%s", got[0], got[1], got[2])
	}
}
