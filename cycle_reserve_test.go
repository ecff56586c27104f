package tenure_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure"
	"github.com/tenurepolicy/tenure/eligibility/evictionbudget"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
	"github.com/tenurepolicy/tenure/requeue/reserve"
)

// reserveWorld is one 8-GPU node running "over" (8 GPU, started an hour
// ago, expected 30 minutes: over-running) and "big" (8 GPU) waiting 3h.
func reserveWorld(t *testing.T) (*cluster.Model, reserve.Input) {
	t.Helper()
	c, err := cluster.New([]cluster.Node{{Name: "n0", Capacity: cluster.Resources{GPU: 8}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"over", "big"} {
		if err := c.AddJob(nil, cluster.Job{ID: id, Tasks: []cluster.Resources{{GPU: 8}}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Bind(nil, "over", []string{"n0"}); err != nil {
		t.Fatal(err)
	}
	over := reserve.Job{Node: "n0", Units: 8}
	over.ID, over.Queue, over.Start, over.Expected = "over", queuetree.Root, t0.Add(-time.Hour), 30*time.Minute
	big := reserve.Request{Tasks: 1, Units: 8}
	big.ID, big.Queue, big.Priority, big.Queued = "big", queuetree.Root, 1, t0.Add(-3*time.Hour)
	return c, reserve.Input{Nodes: []reserve.Node{{Name: "n0", Capacity: 8}}, Running: []reserve.Job{over}, Pending: []reserve.Request{big}}
}

// The Policy's reservation counts each running job's min-runtime
// protection (the embedder left ProtectedUntil unset): the planned start is
// its end, and the pass then requeues the job. A job that would backfill
// there is counted protected for its queue's min-runtime too.
func TestCycleReserveHonoursMinRuntime(t *testing.T) {
	p, err := tenure.New(tenure.Config{MinRuntimeArgs: map[string]string{"defaultPreemptMinRuntime": "2h", "defaultReclaimMinRuntime": "2h"},
		Reservation: reserve.Config{Max: 1, After: time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	m, in := reserveWorld(t)
	c := p.BeginAt(t0)
	res, err := c.Reserve(in, nil, m)
	if err != nil || len(res.Held) != 1 || len(res.Passes) != 0 || !res.Held[0].Start.Equal(t0.Add(time.Hour)) {
		t.Fatalf("%+v, %v", res, err)
	}
	if want := t0.Add(time.Hour); !c.Wake().Equal(want) {
		t.Errorf("Wake %v, want the protection's end %v", c.Wake(), want)
	}
	// A 30-minute job would end in time, but its own 2h protection would not.
	r := reserve.Request{Tasks: 1, Units: 1, Expected: 30 * time.Minute}
	r.ID, r.Queue = "small", queuetree.Root
	if d := c.Backfill(&r, "n0"); d.Allowed || d.Reason != reserve.ReasonReserved {
		t.Errorf("Backfill of a job protected past the start: %v", d)
	}
	r.MinRuntime = time.Minute // its own, when the embedder knows better
	if d := c.Backfill(&r, "n0"); !d.Allowed {
		t.Errorf("Backfill with MinRuntime 1m: %v", d)
	}
	// At the planned start the pass requeues it.
	c = p.BeginAt(t0.Add(time.Hour))
	if res, err = c.Reserve(in, nil, m); err != nil || len(res.Passes) != 1 || res.Passes[0].Sets != 1 {
		t.Fatalf("at the start: %+v, %v", res, err)
	}
}

// Without AllowProtectedRequeue a protected job is never counted gone
// before its protection ends; with it, the plan does not wait for it.
func TestCycleReserveAllowProtectedRequeue(t *testing.T) {
	p, err := tenure.New(tenure.Config{MinRuntimeArgs: map[string]string{"defaultReclaimMinRuntime": "2h", "defaultPreemptMinRuntime": "2h"},
		AllowProtectedRequeue: true, Reservation: reserve.Config{Max: 1}})
	if err != nil {
		t.Fatal(err)
	}
	m, in := reserveWorld(t)
	res, err := p.BeginAt(t0).Reserve(in, nil, m)
	if err != nil || len(res.Held) != 1 || !res.Held[0].Start.Equal(t0) || len(res.Passes) != 1 || res.Passes[0].Sets != 1 {
		t.Fatalf("%+v, %v", res, err)
	}
}

// A planned start ahead is the Cycle's Wake, and so is a backfill
// denial's Until.
func TestCycleReserveWake(t *testing.T) {
	p, err := tenure.New(tenure.Config{Reservation: reserve.Config{Max: 1}})
	if err != nil {
		t.Fatal(err)
	}
	_, in := reserveWorld(t)
	in.Running[0].Expected = 3 * time.Hour // ends at t0+2h
	c := p.BeginAt(t0)
	res, err := c.Reserve(in, nil, nil)
	if err != nil || len(res.Held) != 1 || !c.Wake().Equal(t0.Add(2*time.Hour)) {
		t.Fatalf("%+v %v, Wake %v", res, err, c.Wake())
	}
	c = p.BeginAt(t0.Add(time.Hour))
	r := reserve.Request{Tasks: 1, Units: 1, Expected: 90 * time.Minute}
	r.ID = "small"
	if d := c.Backfill(&r, "n0"); d.Allowed || d.Reason != reserve.ReasonReserved || !c.Wake().Equal(t0.Add(2*time.Hour)) {
		t.Errorf("Backfill %v, Wake %v", d, c.Wake())
	}
}

// UpdateQueues carries the reservations over.
func TestUpdateQueuesKeepsReservations(t *testing.T) {
	p, err := tenure.New(tenure.Config{Reservation: reserve.Config{Max: 1}})
	if err != nil {
		t.Fatal(err)
	}
	_, in := reserveWorld(t)
	in.Running[0].Expected = 3 * time.Hour
	if res, _ := p.BeginAt(t0).Reserve(in, nil, nil); len(res.Held) != 1 {
		t.Fatal("no reservation")
	}
	np, err := p.UpdateQueues([]tenure.Queue{{Name: "team-a"}})
	if err != nil || np == p {
		t.Fatalf("%v", err)
	}
	res, err := np.BeginAt(t0.Add(time.Minute)).Reserve(in, nil, nil)
	if err != nil || len(res.Held) != 1 || !res.Held[0].Taken.Equal(t0) {
		t.Errorf("after UpdateQueues: %+v, %v", res.Held, err)
	}
}

// The reservation's settings are checked at New with the rest, and its
// Engine may hold only CanContend.
func TestReservationConfigErrors(t *testing.T) {
	_, err := tenure.New(tenure.Config{Reservation: reserve.Config{Max: -1, After: -time.Second, Engine: requeue.EngineConfig{MaxVictims: 3}},
		EvictionBudget: evictionbudget.Budget{Max: -1}})
	if err == nil {
		t.Fatal("New accepted a bad reservation")
	}
	for _, want := range []string{"reservation: reserve: Max -1", "After -1s", "reservation.engine: Reservation.Engine holds only CanContend", "evictionBudget"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%v\ndoes not mention %q", err, want)
		}
	}
	var c tenure.Config
	err = json.Unmarshal([]byte(`{"reservation": {"max": 1, "after": "1 hour", "minPriorty": 3}}`), &c)
	if err == nil || !strings.Contains(err.Error(), "reservation.minPriorty") || !strings.Contains(err.Error(), "reservation.after") {
		t.Errorf("file errors: %v", err)
	}
	if err := json.Unmarshal([]byte(`{"reservation": {"max": 2, "after": "2h", "minUnits": 16, "minPriority": 0}}`), &c); err != nil {
		t.Fatal(err)
	}
	if r := c.Reservation; r.Max != 2 || r.After != 2*time.Hour || r.MinUnits != 16 || !r.HasMinPriority || r.MinPriority != 0 {
		t.Errorf("read %+v", r)
	}
}
