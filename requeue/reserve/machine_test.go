package reserve

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/google/go-cmp/cmp"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/requeue"
)

// A job that Backfill lets onto a reserved node and that honours its
// expected runtime never delays the holder: planned again with every such
// job running, the reserved nodes are ready by the planned start.
func TestBackfillNeverDelaysTheHolder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in, r := genWorld(t)
		p := mustNewT(t)
		res, _ := p.Plan(t0, in, nil)
		if len(res.Held) != 1 {
			return
		}
		h := res.Held[0]
		after := in
		after.Running = slices.Clone(in.Running)
		now := t0
		for i := range rapid.IntRange(1, 12).Draw(t, "backfills") {
			now = now.Add(time.Duration(rapid.IntRange(0, 60).Draw(t, "step")) * time.Minute)
			b := request(fmt.Sprintf("b%d", i), 1, rapid.Int64Range(1, 8).Draw(t, "units"), 0)
			b.Expected = time.Duration(rapid.IntRange(0, 300).Draw(t, "expected")) * time.Minute
			b.MinRuntime = time.Duration(rapid.IntRange(0, 300).Draw(t, "minRuntime")) * time.Minute
			node := rapid.SampledFrom(h.Nodes).Draw(t, "node")
			if d := p.Backfill(now, &b, node); d.Allowed {
				j := Job{Node: node, Units: b.Units, ProtectedUntil: now.Add(b.MinRuntime)}
				j.ID, j.Start, j.Expected = b.ID, now, b.Expected
				after.Running = append(after.Running, j)
			} else if d.Reason != ReasonReserved && d.Reason != ReasonNoExpectedRuntime {
				t.Fatalf("Backfill on a reserved node: %v", d)
			}
		}
		// Only the reserved nodes, planned from the first instant: the
		// backfilled jobs must be gone (or evictable) by the start.
		after.Nodes = slices.DeleteFunc(slices.Clone(in.Nodes), func(n Node) bool { return !slices.Contains(h.Nodes, n.Name) })
		again, _ := mustNewT(t).Plan(t0, after, nil)
		if len(again.Held) != 1 || again.Held[0].Start.After(h.Start) {
			t.Fatalf("with the backfilled jobs: %+v; planned start was now+%v", again.Held, h.Start.Sub(t0))
		}
		_ = r
	})
}

// A random sequence of plans, arrivals, starts, departures and lost nodes
// keeps the invariants: no two reservations share a node, at most Max are
// held, every holder is pending and qualifies, a holder that started or
// left is released with that reason, and re-plans stay within MaxReplans.
func TestReservationStateMachine(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := Config{Max: rapid.IntRange(0, 3).Draw(t, "max"), After: time.Duration(rapid.IntRange(0, 30).Draw(t, "after")) * time.Minute,
			MinUnits: rapid.Int64Range(0, 8).Draw(t, "minUnits"), MaxReplans: rapid.IntRange(0, 3).Draw(t, "maxReplans")}
		p, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		w := &machineWorld{t: t, nodes: gpuNodes(6, 8)}
		now := t0
		for step := range rapid.IntRange(1, 40).Draw(t, "steps") {
			now = now.Add(time.Duration(rapid.IntRange(0, 90).Draw(t, "dt")) * time.Minute)
			w.change(now, step)
			in := w.input()
			res, err := p.Plan(now, in, nil)
			if err != nil {
				t.Fatal(err)
			}
			w.check(p, cfg, now, in, res)
		}
	})
}

// machineWorld is the state machine's cluster.
type machineWorld struct {
	t       *rapid.T
	nodes   []Node
	running []Job
	pending []Request
	prev    []Reservation
}

// change applies one random event at now.
func (w *machineWorld) change(now time.Time, step int) {
	t := w.t
	switch rapid.IntRange(0, 5).Draw(t, "event") {
	case 0: // a job arrives
		r := Request{Tasks: rapid.IntRange(0, 3).Draw(t, "tasks"), Units: rapid.Int64Range(0, 8).Draw(t, "units")}
		r.ID, r.Queued, r.Priority = fmt.Sprintf("p%d", step), now, int32(rapid.IntRange(0, 3).Draw(t, "prio"))
		w.pending = append(w.pending, r)
	case 1: // a job starts on a node
		if len(w.pending) > 0 {
			i := rapid.IntRange(0, len(w.pending)-1).Draw(t, "start")
			j := Job{Node: rapid.SampledFrom(w.nodes).Draw(t, "on").Name, Units: max(0, w.pending[i].Units)}
			j.ID, j.Start, j.Expected = w.pending[i].ID, now, time.Duration(rapid.IntRange(0, 240).Draw(t, "expected"))*time.Minute
			w.running = append(w.running, j)
			w.pending = slices.Delete(w.pending, i, i+1)
		}
	case 2: // a job ends
		if len(w.running) > 0 {
			i := rapid.IntRange(0, len(w.running)-1).Draw(t, "end")
			w.running = slices.Delete(w.running, i, i+1)
		}
	case 3: // a pending job leaves
		if len(w.pending) > 0 {
			i := rapid.IntRange(0, len(w.pending)-1).Draw(t, "leave")
			w.pending = slices.Delete(w.pending, i, i+1)
		}
	case 4: // a node goes or comes back
		if rapid.Bool().Draw(t, "nodeGone") && len(w.nodes) > 1 {
			w.nodes = w.nodes[1:]
		} else if len(w.nodes) < 6 {
			w.nodes = append(w.nodes, Node{Name: fmt.Sprintf("extra-%d", step), Capacity: 8})
		}
	}
}

func (w *machineWorld) input() Input {
	return Input{Nodes: slices.Clone(w.nodes), Running: slices.Clone(w.running), Pending: slices.Clone(w.pending)}
}

// check asserts the invariants of one plan.
func (w *machineWorld) check(p *Planner, cfg Config, now time.Time, in Input, res Result) {
	t := w.t
	if len(res.Held) > cfg.Max {
		t.Fatalf("%d held, Max %d", len(res.Held), cfg.Max)
	}
	owner := map[string]string{}
	for _, h := range res.Held {
		i := slices.IndexFunc(in.Pending, func(r Request) bool { return r.ID == h.Holder })
		if i < 0 || !validRequest(&in.Pending[i]) || !cfg.qualifies(&in.Pending[i]) || len(h.Nodes) != in.Pending[i].Tasks {
			t.Fatalf("holder %s is not a qualifying pending job", h.Holder)
		}
		if h.Replans > cfg.maxReplans() {
			t.Fatalf("%s re-planned %d times", h.Holder, h.Replans)
		}
		for _, n := range h.Nodes {
			if o, ok := owner[n]; ok {
				t.Fatalf("node %s held by %s and %s", n, o, h.Holder)
			}
			owner[n] = h.Holder
			if !slices.ContainsFunc(in.Nodes, func(x Node) bool { return x.Name == n }) {
				t.Fatalf("%s holds unknown node %s", h.Holder, n)
			}
			if d := p.Backfill(now, &Request{Contender: in.Pending[i].Contender}, n); !d.Allowed {
				t.Fatalf("the holder is denied its own node: %v", d)
			}
		}
	}
	for _, prev := range w.prev {
		started := slices.ContainsFunc(in.Running, func(j Job) bool { return j.ID == prev.Holder })
		left := !started && !slices.ContainsFunc(in.Pending, func(r Request) bool { return r.ID == prev.Holder })
		var want eligibility.Reason
		switch {
		case started:
			want = reasonStarted
		case left:
			want = reasonLeft
		default:
			continue
		}
		if !slices.ContainsFunc(res.Released, func(r Reservation) bool { return r.Holder == prev.Holder && r.Reason == want }) {
			t.Fatalf("%s: want released %s, got %+v", prev.Holder, want, res.Released)
		}
	}
	for _, n := range in.Nodes {
		if _, held := owner[n.Name]; !held {
			if d := p.Backfill(now, &Request{}, n.Name); !d.Allowed {
				t.Fatalf("node %s not held, Backfill %v", n.Name, d)
			}
		}
	}
	w.prev = res.Held
}

func TestMachineWorldCoversReleases(t *testing.T) {
	// The state machine would pass vacuously if no release ever happened:
	// count the reasons over a fixed number of random runs.
	seen := map[eligibility.Reason]int{}
	for i := range 200 {
		rapid.Check(t, func(rt *rapid.T) {
			_ = i
			p, _ := New(Config{Max: 2})
			w := &machineWorld{t: rt, nodes: gpuNodes(4, 8)}
			now := t0
			for step := range 30 {
				now = now.Add(10 * time.Minute)
				w.change(now, step)
				res, _ := p.Plan(now, w.input(), nil)
				for _, r := range res.Released {
					seen[r.Reason]++
				}
				for _, h := range res.Held {
					seen[h.Reason]++
				}
			}
		})
		if len(seen) >= 5 {
			break
		}
	}
	for _, want := range []eligibility.Reason{reasonTaken, reasonStarted, reasonLeft, reasonDue} {
		if seen[want] == 0 {
			t.Errorf("no %s in 200 random runs: %v", want, seen)
		}
	}
}

// TestIdlePlanReadsNoJobChangesNothing: a Plan with no reservation held
// and no qualifying job reads no running job; over random sequences of
// the state machine's events, a Planner that takes that shortcut and one
// that indexes every job give the same results, the same events, and the
// same Backfill answers on every node, and the shortcut is taken.
func TestIdlePlanReadsNoJobChangesNothing(t *testing.T) {
	idle, held := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		cfg := Config{Max: rapid.IntRange(0, 2).Draw(t, "max"), After: time.Duration(rapid.IntRange(0, 30).Draw(t, "after")) * time.Minute,
			MinUnits: rapid.Int64Range(0, 8).Draw(t, "minUnits")}
		var events [2][]eligibility.Event
		var ps [2]*Planner
		for i := range ps {
			c := cfg
			c.Observer = eligibility.ObserverFunc(func(e eligibility.Event) { events[i] = append(events[i], e) })
			p, err := New(c)
			if err != nil {
				t.Fatal(err)
			}
			ps[i] = p
		}
		ps[1].everyJob = true
		w := &machineWorld{t: t, nodes: gpuNodes(4, 8)}
		now := t0
		for step := range rapid.IntRange(1, 30).Draw(t, "steps") {
			now = now.Add(time.Duration(rapid.IntRange(0, 60).Draw(t, "dt")) * time.Minute)
			w.change(now, step)
			in := w.input()
			ps[0].now = now // idle reads the Plan's instant
			if ps[0].idle(&in) {
				idle++
			}
			fast, err0 := ps[0].Plan(now, in, nil)
			plain, err1 := ps[1].Plan(now, in, nil)
			if (err0 == nil) != (err1 == nil) {
				t.Fatalf("errors %v and %v", err0, err1)
			}
			if d := cmp.Diff(plain, fast); d != "" {
				t.Fatalf("step %d: results differ (-every job +idle shortcut):\n%s", step, d)
			}
			for _, n := range w.nodes {
				for _, r := range append(slices.Clone(in.Pending), Request{Contender: requeue.Contender{ID: "x"}, Tasks: 1, Units: 1, Expected: time.Hour}) {
					if a, b := ps[0].Backfill(now, &r, n.Name), ps[1].Backfill(now, &r, n.Name); a != b {
						t.Fatalf("step %d: Backfill(%s, %s) = %+v with the shortcut, %+v without", step, r.ID, n.Name, a, b)
					}
				}
			}
			if len(fast.Held) > 0 {
				held++
			}
			w.prev = fast.Held
		}
		if d := cmp.Diff(events[1], events[0]); d != "" {
			t.Fatalf("events differ (-every job +idle shortcut):\n%s", d)
		}
	})
	if idle == 0 || held == 0 {
		t.Fatalf("%d idle Plans, %d holding reservations: the test shows nothing", idle, held)
	}
}
