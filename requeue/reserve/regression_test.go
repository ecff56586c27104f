package reserve

import (
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/requeue/cluster"
)

// modelOf is a cluster.Model of 8-GPU nodes names, the jobs bound to their
// nodes, and pending jobs of 8 GPUs.
func modelOf(t *testing.T, names []string, jobs []Job, pending ...string) *cluster.Model {
	t.Helper()
	var ns []cluster.Node
	for _, n := range names {
		ns = append(ns, cluster.Node{Name: n, Capacity: cluster.Resources{GPU: 8}})
	}
	c, err := cluster.New(ns)
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs {
		if err := c.AddJob(nil, cluster.Job{ID: j.ID, Tasks: []cluster.Resources{{GPU: j.Units}}}); err != nil {
			t.Fatal(err)
		}
		if err := c.Bind(nil, j.ID, []string{j.Node}); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range pending {
		if err := c.AddJob(nil, cluster.Job{ID: id, Tasks: []cluster.Resources{{GPU: 8}}}); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// A reservation taken and due in one Plan runs its pass for its holder,
// not for another pending job.
func TestDueAtTakingRunsForItsHolder(t *testing.T) {
	m, in := dueWorld(t, running("over", "node-00", 8, 3*time.Hour, time.Hour))
	if err := m.AddJob(nil, cluster.Job{ID: "small", Tasks: []cluster.Resources{{GPU: 1}}}); err != nil {
		t.Fatal(err)
	}
	in.Pending = append([]Request{request("small", 1, 1, 10*time.Hour)}, in.Pending...)
	res, err := mustNew(t, Config{Max: 1, MinUnits: 8}).Plan(t0, in, m)
	if err != nil || len(res.Passes) != 1 {
		t.Fatalf("%+v, %v", res, err)
	}
	if got := committed(res.Passes[0]); len(got) != 1 || got[0] != "over" || res.Passes[0].Sets != 1 {
		t.Errorf("committed %v for %v", got, res.Passes[0].Outcomes)
	}
	if ev := res.Passes[0].Outcomes[0]; ev.Contenders[0] != "big" {
		t.Errorf("evicted for %v, want big", ev.Contenders)
	}
}

// The pass at the planned start nominates only the jobs that overstay:
// one the plan counted on staying (no expected runtime) is kept even when
// evicting it would be cheaper.
func TestDuePassNominatesOnlyOverstayers(t *testing.T) {
	stays := running("stays", "node-00", 4, 10*time.Minute, 0)
	stays.Priority = 9
	over := running("over", "node-00", 4, 3*time.Hour, time.Hour)
	in := Input{Nodes: gpuNodes(1, 8), Running: []Job{stays, over}, Pending: []Request{request("big", 1, 4, time.Hour)}}
	m := modelOf(t, []string{"node-00"}, in.Running)
	if err := m.AddJob(nil, cluster.Job{ID: "big", Tasks: []cluster.Resources{{GPU: 4}}}); err != nil {
		t.Fatal(err)
	}
	res, err := mustNew(t, Config{Max: 1}).Plan(t0, in, m)
	if err != nil || len(res.Passes) != 1 {
		t.Fatalf("%+v, %v", res, err)
	}
	if diff := cmp.Diff([]string{"over"}, committed(res.Passes[0])); diff != "" {
		t.Errorf("committed (-want +got):\n%s", diff)
	}
}

// Bad data never panics: a request of more tasks than int32 holds.
func TestHugeTasksDoNotPanic(t *testing.T) {
	for _, one := range []bool{false, true} {
		r := request("big", math.MaxInt, 8, time.Hour)
		r.OneDomain = one
		in := Input{Nodes: []Node{{Name: "a", Capacity: 8, Domain: "r1"}, {Name: "b", Capacity: 8, Domain: "r1"}}, Pending: []Request{r}}
		if res := mustPlan(t, mustNew(t, Config{Max: 1}), t0, in); len(res.Held) != 0 {
			t.Errorf("held %+v", res.Held)
		}
	}
}

// Re-plans need time to pass: plans at one instant spend none, and a
// reservation whose pass committed victims waits while they are still
// running, without a second pass.
func TestReplansNeedTimeAndLeavingVictims(t *testing.T) {
	in := Input{Nodes: gpuNodes(1, 8), Running: []Job{running("over", "node-00", 8, 3*time.Hour, time.Hour)},
		Pending: []Request{request("big", 1, 8, time.Hour)}}
	p := mustNew(t, Config{Max: 1})
	for range 5 {
		mustPlan(t, p, t0, in)
	}
	if h := p.held[0]; h.Replans != 0 || h.Draining {
		t.Errorf("after 5 plans at one instant: %+v", h.Reservation)
	}

	a := running("a", "node-00", 8, 3*time.Hour, time.Hour)
	a.LastCheckpoint = t0.Add(-10 * time.Minute)
	c := running("c", "node-01", 8, 3*time.Hour, time.Hour)
	c.LastCheckpoint = t0.Add(-time.Hour)
	in = Input{Nodes: gpuNodes(2, 8), Running: []Job{a, c}, Pending: []Request{request("big", 1, 8, time.Hour)}}
	p = mustNew(t, Config{Max: 1})
	res, _ := p.Plan(t0, in, modelOf(t, []string{"node-00", "node-01"}, in.Running, "big"))
	if diff := cmp.Diff([]string{"a"}, committed(res.Passes[0])); diff != "" {
		t.Fatalf("first pass (-want +got):\n%s", diff)
	}
	// a is still terminating: no re-plan, no pass, no second victim.
	res, _ = p.Plan(t0.Add(30*time.Second), in, modelOf(t, []string{"node-00", "node-01"}, in.Running, "big"))
	if len(res.Passes) != 0 || res.Held[0].Replans != 0 || res.Held[0].Nodes[0] != "node-00" {
		t.Errorf("while a terminates: %+v", res)
	}
	// a has left, big still waits: now it is planned again.
	in.Running = in.Running[1:]
	res, _ = p.Plan(t0.Add(time.Minute), in, nil)
	if res.Held[0].Replans != 1 {
		t.Errorf("after a left: %+v", res.Held)
	}
}

// A job listed twice counts at its first entry: a bad first entry keeps
// the job from holding anything, steadily.
func TestDuplicatePendingCountsAtFirstEntry(t *testing.T) {
	var ev events
	p := mustNew(t, Config{Max: 1, Observer: &ev})
	in := Input{Nodes: gpuNodes(1, 8), Pending: []Request{request("big", 0, 8, time.Hour), request("big", 1, 8, time.Hour)}}
	for range 3 {
		if res := mustPlan(t, p, t0, in); len(res.Held) != 0 {
			t.Fatalf("held %+v", res.Held)
		}
	}
	if diff := cmp.Diff([]eligibility.Reason{reasonBadRequest, reasonBadRequest, reasonBadRequest}, ev.reasons("big")); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// At most maxFailedPlans unservable plans per Plan: a queue of odd shapes
// costs O(nodes) each only up to that bound.
func TestFailedPlansAreBounded(t *testing.T) {
	var ev events
	in := Input{Nodes: gpuNodes(2, 8)}
	for i := range 3 * maxFailedPlans {
		in.Pending = append(in.Pending, request(string(rune('A'+i)), 3+i, 8, time.Hour)) // more tasks than nodes
	}
	in.Pending = append(in.Pending, request("fits", 1, 8, time.Hour))
	p := mustNew(t, Config{Max: 1, Observer: &ev})
	if res := mustPlan(t, p, t0, in); len(res.Held) != 0 {
		t.Errorf("held %+v behind %d unservable jobs", res.Held, 3*maxFailedPlans)
	}
	if len(ev) != maxFailedPlans {
		t.Errorf("%d events, want %d", len(ev), maxFailedPlans)
	}
}

// Infinite Resources checkpointed exactly now lose nothing (not NaN).
func TestLostWorkIsNeverNaN(t *testing.T) {
	j := running("inf", "node-00", 8, time.Hour, 30*time.Minute)
	j.Resources, j.LastCheckpoint = math.Inf(1), t0
	res := mustPlan(t, mustNew(t, Config{Max: 1}), t0, Input{Nodes: gpuNodes(1, 8), Running: []Job{j}, Pending: []Request{request("big", 1, 8, time.Hour)}})
	if len(res.Held) != 1 || res.Held[0].LostWork != 0 {
		t.Errorf("%+v", res.Held)
	}
}

// Renew to a lower Max releases the reservations taken last.
func TestRenewLowerMaxReleases(t *testing.T) {
	in := Input{Nodes: gpuNodes(2, 8), Running: []Job{running("a", "node-00", 8, 0, time.Hour), running("b", "node-01", 8, 0, 2*time.Hour)},
		Pending: []Request{request("p1", 1, 8, time.Hour), request("p2", 1, 8, time.Hour)}}
	p := mustNew(t, Config{Max: 2})
	mustPlan(t, p, t0, in)
	np, err := p.Renew(Config{})
	if err != nil {
		t.Fatal(err)
	}
	res := mustPlan(t, np, t0, in)
	if len(res.Held) != 0 || len(res.Released) != 2 || res.Released[0].Reason != reasonNotQualified {
		t.Errorf("%+v", res)
	}
}

// Fits keeps a request off the nodes it can never use.
func TestFitsExcludesNodes(t *testing.T) {
	in := Input{Nodes: gpuNodes(2, 8), Running: []Job{running("a", "node-00", 8, 0, time.Hour), running("b", "node-01", 8, 0, 2*time.Hour)},
		Pending: []Request{request("big", 1, 8, time.Hour)}}
	fits := func(r *Request, node string) bool { return node != "node-00" } // node-00 lacks the CPUs big needs
	p := mustNew(t, Config{Max: 1, Fits: fits})
	res := mustPlan(t, p, t0, in)
	if len(res.Held) != 1 || res.Held[0].Nodes[0] != "node-01" || !res.Held[0].Start.Equal(t0.Add(2*time.Hour)) {
		t.Fatalf("%+v", res.Held)
	}
	p.cfg.Fits = func(*Request, string) bool { return false } // the request changed its selector
	if res := mustPlan(t, p, t0.Add(time.Minute), in); len(res.Released) != 1 || res.Released[0].Reason != reasonNotQualified || len(res.Held) != 0 {
		t.Errorf("%+v", res)
	}
}

// A reservation moves to nodes that free earlier than planned (a job ended
// early), without counting a re-plan.
func TestMovesEarlier(t *testing.T) {
	var ev events
	in := Input{Nodes: gpuNodes(2, 8), Running: []Job{running("a", "node-00", 8, 0, 2*time.Hour), running("b", "node-01", 8, 0, 3*time.Hour)},
		Pending: []Request{request("big", 1, 8, time.Hour)}}
	p := mustNew(t, Config{Max: 1, Observer: &ev})
	mustPlan(t, p, t0, in)
	in.Running = in.Running[:1] // b ended early: node-01 is free now
	res := mustPlan(t, p, t0.Add(time.Minute), in)
	if h := res.Held[0]; h.Nodes[0] != "node-01" || !h.Start.Equal(t0.Add(time.Minute)) || h.Replans != 0 {
		t.Errorf("%+v", h)
	}
	if diff := cmp.Diff([]eligibility.Reason{reasonTaken, reasonMoved, reasonDue}, ev.reasons("big")); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// A holder that a pass cannot place on its empty nodes does not fit them
// at all: released, not re-planned onto them nor drained.
func TestUnfitHolderIsReleased(t *testing.T) {
	in := Input{Nodes: gpuNodes(1, 8), Pending: []Request{request("big", 1, 8, time.Hour)}}
	m := modelOf(t, []string{"node-00"}, nil)
	if err := m.AddJob(nil, cluster.Job{ID: "big", Tasks: []cluster.Resources{{GPU: 8, MilliCPU: 1 << 40}}}); err != nil { // more CPU than the node
		t.Fatal(err)
	}
	p := mustNew(t, Config{Max: 1})
	if res, err := p.Plan(t0, in, m); err != nil || len(res.Passes) != 1 || len(res.Passes[0].FitWithoutEviction) != 0 {
		t.Fatalf("%+v, %v", res, err)
	}
	res, err := p.Plan(t0.Add(time.Minute), in, m)
	if err != nil || len(res.Released) != 1 || res.Released[0].Reason != reasonNoFit {
		t.Errorf("%+v, %v", res, err)
	}
}

// TestIdlePlanIndexesWhileAReservationIsHeld: a Plan that holds a
// reservation is never idle, even when its holder no longer meets After
// (Renew raised it; a holder keeps its reservation once taken): it reads
// the running jobs, and its planned start stays the one they give (found
// by a review of the shortcut's random test).
func TestIdlePlanIndexesWhileAReservationIsHeld(t *testing.T) {
	in := Input{Nodes: gpuNodes(1, 8), Running: []Job{running("r", "node-00", 8, 0, 2*time.Hour)},
		Pending: []Request{request("p", 1, 8, 0)}}
	var res [2]Result
	for i, every := range []bool{false, true} {
		p := mustNew(t, Config{Max: 1})
		p.everyJob = every
		mustPlan(t, p, t0, in)
		p2, err := p.Renew(Config{Max: 1, After: 10 * time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		p2.everyJob = every
		res[i] = mustPlan(t, p2, t0.Add(time.Minute), in)
	}
	if d := cmp.Diff(res[1], res[0]); d != "" {
		t.Fatalf("(-every job +shortcut):\n%s", d)
	}
	if len(res[1].Held) != 1 || !res[1].Held[0].Start.Equal(t0.Add(2*time.Hour)) {
		t.Fatalf("%+v", res[1].Held)
	}
}
