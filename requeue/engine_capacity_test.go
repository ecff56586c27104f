package requeue_test

import (
	"errors"
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

// TestEngineCapacityBoundSparesShares: a contender the capacity bound
// rules out says nothing against the victims, even when its search is cut
// short (MaxSetGroups 1 here): it must not use up their shares
// (MaxAttemptsPerVictim 1), so both servable contenders behind it are
// served, as they are when it is absent.
func TestEngineCapacityBoundSparesShares(t *testing.T) {
	c := gpuCluster(t, 2, fxJob{id: "v1", gpus: []int64{4}, running: true}, fxJob{id: "v2", gpus: []int64{4}, running: true},
		fxJob{id: "huge", gpus: []int64{5}}, fxJob{id: "a", gpus: []int64{4}}, fxJob{id: "b", gpus: []int64{4}})
	in := requeue.EngineInput{
		Nominations: noms("x", "v1", "v2"),
		Victims:     []requeue.Victim{{ID: "v1"}, {ID: "v2"}},
		Contenders:  []requeue.Contender{{ID: "huge", Priority: 9}, {ID: "a", Priority: 5}, {ID: "b", Priority: 4}},
	}
	e, err := requeue.NewEngine(requeue.EngineConfig{MaxAttemptsPerVictim: 1, MaxSetGroups: 1})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(t0, in, capBound{c.Clone()})
	if err != nil {
		t.Fatal(err)
	}
	served := map[string]bool{}
	for _, o := range res.Outcomes {
		if o.Kind != requeue.OutcomeCommitted {
			t.Errorf("%s: %s (%s), want committed", o.Job, o.Kind, o.Reason)
		}
		for _, cn := range o.Contenders {
			served[cn] = true
		}
	}
	if !served["a"] || !served["b"] {
		t.Errorf("served %v, want a and b: %v", served, res.Outcomes)
	}
}

// refusingCapModel is the Cluster with its capacity bound whose Evict
// refuses one running job.
type refusingCapModel struct {
	c      *cluster.Model
	refuse string
}

func (m refusingCapModel) Evict(j *requeue.Journal, id string) error {
	if id == m.refuse {
		return errors.New("refused")
	}
	return m.c.Evict(j, id)
}
func (m refusingCapModel) Place(j *requeue.Journal, id string) (bool, error) { return m.c.Place(j, id) }
func (m refusingCapModel) MayEverFit(job string) bool                        { return m.c.MayEverFit(job) }

// TestEngineCapacityBoundNoEmptyEvent: when a ruled-out contender's one
// eviction of each victim closes them all (every Evict failed), nothing is
// left to settle, and no rolled-back event without a job is emitted; the
// victim ends evict_error, as without the capacity bound.
func TestEngineCapacityBoundNoEmptyEvent(t *testing.T) {
	c := gpuCluster(t, 1, fxJob{id: "v", gpus: []int64{2}, running: true}, fxJob{id: "huge", gpus: []int64{5}})
	in := requeue.EngineInput{
		Nominations: noms("x", "v"),
		Victims:     []requeue.Victim{{ID: "v"}},
		Contenders:  []requeue.Contender{{ID: "huge", Priority: 9}},
	}
	var events []eligibility.Event
	e, err := requeue.NewEngine(requeue.EngineConfig{Observer: eligibility.ObserverFunc(func(ev eligibility.Event) { events = append(events, ev) })})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(t0, in, refusingCapModel{c, "v"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Outcomes) != 1 || res.Outcomes[0].Reason != requeue.ReasonEvictError {
		t.Fatalf("outcomes %v, want v evict_error", res.Outcomes)
	}
	for _, ev := range events {
		if ev.Job == "" {
			t.Errorf("event without a job: %+v", ev)
		}
	}
}
