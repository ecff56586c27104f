package reserve

import (
	"slices"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
)

// dueWorld is two 8-GPU nodes: node-00 runs the given jobs, node-01 a job
// "other" (8 GPU, ends in 9h); "big" (one 8-GPU task, priority 1) waits.
func dueWorld(t *testing.T, jobs ...Job) (*cluster.Model, Input) {
	t.Helper()
	c, err := cluster.New([]cluster.Node{{Name: "node-00", Capacity: cluster.Resources{GPU: 8}}, {Name: "node-01", Capacity: cluster.Resources{GPU: 8}}})
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Nodes: gpuNodes(2, 8), Pending: []Request{request("big", 1, 8, time.Hour)}}
	jobs = append(jobs, running("other", "node-01", 8, time.Hour, 10*time.Hour))
	for _, j := range jobs {
		if err := c.AddJob(nil, cluster.Job{ID: j.ID, Tasks: []cluster.Resources{{GPU: j.Units}}}); err != nil {
			t.Fatal(err)
		}
		if err := c.Bind(nil, j.ID, []string{j.Node}); err != nil {
			t.Fatal(err)
		}
		in.Running = append(in.Running, j)
	}
	if err := c.AddJob(nil, cluster.Job{ID: "big", Tasks: []cluster.Resources{{GPU: 8}}}); err != nil {
		t.Fatal(err)
	}
	return c, in
}

// committed lists a pass's committed victims.
func committed(out requeue.EngineResult) []string {
	var ids []string
	for _, o := range out.Outcomes {
		if o.Kind == requeue.OutcomeCommitted {
			ids = append(ids, o.Job)
		}
	}
	return ids
}

// At the planned start the jobs on the nodes are offered to the engine,
// the holder as the contender: it evicts an irreducible set, whatever the
// victims' priority, and places the holder.
func TestDuePassRequeuesOverstayers(t *testing.T) {
	a := running("a", "node-00", 4, 3*time.Hour, time.Hour) // past its end
	a.Priority = 9                                          // above the holder: the node is the holder's anyway
	b := running("b", "node-00", 2, 3*time.Hour, time.Hour)
	c := running("c", "node-00", 2, 0, 30*time.Minute) // ends in 30m: the plan waits for it
	m, in := dueWorld(t, a, b, c)
	p := mustNew(t, Config{Max: 1})
	res, err := p.Plan(t0, in, m)
	if err != nil || len(res.Held) != 1 || !res.Held[0].Start.Equal(t0.Add(30*time.Minute)) || len(res.Due) != 0 {
		t.Fatalf("first plan: %+v, %v", res, err)
	}
	now := t0.Add(30 * time.Minute)
	in.Running = []Job{a, b, running("other", "node-01", 8, time.Hour, 10*time.Hour)}
	if err := m.Evict(nil, "c"); err != nil {
		t.Fatal(err)
	}
	res, err = p.Plan(now, in, m)
	if err != nil || len(res.Due) != 1 || len(res.Passes) != 1 {
		t.Fatalf("due plan: %+v, %v", res, err)
	}
	if got := committed(res.Passes[0]); !slices.Equal(slices.Sorted(slices.Values(got)), []string{"a", "b"}) {
		t.Errorf("committed %v, want a and b", got)
	}
	if res.Passes[0].Sets != 1 {
		t.Errorf("sets %d", res.Passes[0].Sets)
	}
}

// The engine's filters hold at the planned start: a protected overstayer
// stays, and Wake carries when its protection ends.
func TestDuePassHonoursFilters(t *testing.T) {
	a := running("a", "node-00", 8, 3*time.Hour, time.Hour)
	m, in := dueWorld(t, a)
	until := t0.Add(20 * time.Minute)
	protect := protectUntil(until)
	p := mustNew(t, Config{Max: 1, Engine: requeue.EngineConfig{Filters: []requeue.VictimFilter{protect}}})
	res, err := p.Plan(t0, in, m)
	if err != nil || len(res.Passes) != 1 {
		t.Fatalf("%+v, %v", res, err)
	}
	if got := committed(res.Passes[0]); len(got) != 0 {
		t.Errorf("committed %v under protection", got)
	}
	if !res.Wake.Equal(until) {
		t.Errorf("Wake now+%v, want now+20m", res.Wake.Sub(t0))
	}
}

// A job whose eviction would already lose more than the lost-work cap is
// never counted gone (its loss only grows): the plan goes elsewhere, or
// takes nothing.
func TestPlanHonoursLostWorkCap(t *testing.T) {
	a := running("a", "node-00", 8, 3*time.Hour, time.Hour)
	a.Resources = 8
	m, in := dueWorld(t, a)
	p := mustNew(t, Config{Max: 1, Engine: requeue.EngineConfig{MaxLostWork: 8 * 3600}}) // a would lose 8 GPU × 3h
	res, err := p.Plan(t0, in, m)
	if err != nil || len(res.Held) != 1 || res.Held[0].Nodes[0] != "node-01" || !res.Held[0].Start.Equal(t0.Add(9*time.Hour)) || len(res.Passes) != 0 {
		t.Fatalf("%+v, %v", res, err)
	}
	in.Nodes = in.Nodes[:1]
	if res := mustPlan(t, mustNew(t, Config{Max: 1, Engine: requeue.EngineConfig{MaxLostWork: 8 * 3600}}), t0, in); len(res.Held) != 0 {
		t.Errorf("held %+v on the over-cap job's node", res.Held)
	}
	// Under the cap, the same job is requeued at once.
	if res := mustPlan(t, mustNew(t, Config{Max: 1, Engine: requeue.EngineConfig{MaxLostWork: 8*3*3600 + 1}}), t0, in); len(res.Held) != 1 || !res.Held[0].Start.Equal(t0) {
		t.Errorf("under the cap: %+v", res.Held)
	}
}

// A CanContend of the embedder's own replaces the reservation's "any
// priority".
func TestDuePassKeepsACustomCanContend(t *testing.T) {
	a := running("a", "node-00", 8, 3*time.Hour, time.Hour)
	a.Priority = 9
	m, in := dueWorld(t, a)
	p := mustNew(t, Config{Max: 1, Engine: requeue.EngineConfig{CanContend: func(v *requeue.Victim, c *requeue.Contender) bool { return c.Priority > v.Priority }}})
	res, err := p.Plan(t0, in, m)
	if err != nil || len(res.Passes) != 1 || len(committed(res.Passes[0])) != 0 {
		t.Errorf("%+v, %v", res.Passes, err)
	}
}

// protectUntil is a filter protecting every victim until an instant.
type protectUntil time.Time

func (u protectUntil) FilterVictim(now time.Time, v *requeue.Victim, c *requeue.Contender) eligibility.Decision {
	if now.Before(time.Time(u)) {
		return eligibility.Decision{Reason: eligibility.ReasonMinRuntimeProtected, Until: time.Time(u)}
	}
	return eligibility.Decision{Allowed: true}
}
