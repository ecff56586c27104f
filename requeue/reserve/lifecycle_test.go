package reserve

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/eligibility"
)

// A reservation is released when its holder starts, leaves or no longer
// qualifies, or when one of its nodes is gone.
func TestReleaseReasons(t *testing.T) {
	base := func() Input {
		return Input{Nodes: gpuNodes(2, 8), Running: []Job{running("a", "node-00", 8, 0, 2*time.Hour), running("b", "node-01", 8, 0, 3*time.Hour)},
			Pending: []Request{request("big", 1, 8, time.Hour)}}
	}
	for _, tc := range []struct {
		name   string
		cfg    Config
		change func(*Input)
		want   eligibility.Reason // "": kept
	}{
		{"nothing changed", Config{}, func(*Input) {}, ""},
		{"holder started", Config{}, func(in *Input) {
			in.Pending = nil
			in.Running = append(in.Running, running("big", "node-01", 8, 0, time.Hour))
		}, reasonStarted},
		{"holder left", Config{}, func(in *Input) { in.Pending = nil }, reasonLeft},
		{"priority fell below MinPriority", Config{MinPriority: 1, HasMinPriority: true}, func(in *Input) { in.Pending[0].Priority = 0 }, reasonNotQualified},
		{"grew a task", Config{}, func(in *Input) { in.Pending[0].Tasks = 2 }, reasonNotQualified},
		{"outgrew the node", Config{}, func(in *Input) { in.Pending[0].Units = 9 }, reasonNotQualified},
		{"became malformed", Config{}, func(in *Input) { in.Pending[0].Units = 0 }, reasonNotQualified},
		{"node gone", Config{}, func(in *Input) { in.Nodes = in.Nodes[1:] }, reasonNodeGone},
		{"waited less (no effect once held)", Config{After: time.Hour}, func(in *Input) { in.Pending[0].Queued = t0 }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ev events
			tc.cfg.Max, tc.cfg.Observer = 1, &ev
			p := mustNew(t, tc.cfg)
			in := base()
			if res := mustPlan(t, p, t0, in); len(res.Held) != 1 {
				t.Fatalf("held %+v", res.Held)
			}
			tc.change(&in)
			res := mustPlan(t, p, t0.Add(time.Minute), in)
			if tc.want == "" {
				if len(res.Released) != 0 || len(res.Held) != 1 {
					t.Errorf("released %+v", res.Released)
				}
				return
			}
			if len(res.Released) != 1 || res.Released[0].Reason != tc.want || res.Released[0].Holder != "big" {
				t.Fatalf("released %+v, want big for %s", res.Released, tc.want)
			}
			if got := ev.reasons("big"); len(got) < 2 || got[1] != tc.want {
				t.Errorf("events %v", got) // a holder still pending may take a new one at once
			}
			if d := p.Backfill(t0, &Request{Contender: request("x", 1, 1, 0).Contender, Expected: 10 * time.Hour}, "node-00"); len(res.Held) == 0 && tc.want != reasonNodeGone && !d.Allowed {
				t.Errorf("node-00 still reserved after the release: %v", d)
			}
		})
	}
}

// A holder that has not started one plan after its due pass is planned
// again, at most MaxReplans times; the reservation then drains, and
// stays until the holder starts.
func TestReplansAreBoundedThenDrain(t *testing.T) {
	var ev events
	p := mustNew(t, Config{Max: 1, MaxReplans: 2, Observer: &ev})
	stuck := running("stuck", "node-00", 8, 2*time.Hour, time.Hour) // past its end: the plan says now
	in := Input{Nodes: gpuNodes(1, 8), Running: []Job{stuck}, Pending: []Request{request("big", 1, 8, time.Hour)}}
	var got []string
	now := t0
	for range 6 {
		res := mustPlan(t, p, now, in) // no model: nothing is evicted, the holder never starts
		h := res.Held[0]
		got = append(got, string(h.Reason))
		if len(res.Due) != 1 {
			t.Fatalf("at now+%v: due %+v", now.Sub(t0), res.Due)
		}
		if h.Draining {
			r := request("small", 1, 1, 0)
			r.Expected = time.Nanosecond
			if d := p.Backfill(now, &r, "node-00"); d != (eligibility.Decision{Reason: ReasonReserved}) {
				t.Errorf("draining: Backfill %v", d)
			}
		}
		now = now.Add(time.Minute)
	}
	want := []string{"reservation_due", "reservation_due", "reservation_due", "reservation_draining", "reservation_draining", "reservation_draining"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("reasons by plan (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]eligibility.Reason{reasonTaken, reasonDue, reasonReplanned, reasonDue, reasonReplanned, reasonDue, reasonDraining}, ev.reasons("big")); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	in.Pending, in.Running = nil, []Job{running("big", "node-00", 8, 0, time.Hour)}
	if res := mustPlan(t, p, now, in); len(res.Released) != 1 || res.Released[0].Reason != reasonStarted || res.Released[0].Replans != 2 {
		t.Errorf("released %+v", res.Released)
	}
}

// A re-plan moves to nodes that are ready earlier when they exist.
func TestReplanMovesNodes(t *testing.T) {
	p := mustNew(t, Config{Max: 1})
	in := Input{Nodes: gpuNodes(2, 8), Running: []Job{running("a", "node-00", 8, 0, time.Hour), running("b", "node-01", 8, 0, 5*time.Hour)},
		Pending: []Request{request("big", 1, 8, time.Hour)}}
	mustPlan(t, p, t0, in)
	now := t0.Add(time.Hour)
	in.Running[0].ProtectedUntil = now.Add(10 * time.Hour) // a overstays, protected
	if res := mustPlan(t, p, now, in); len(res.Due) != 1 {
		t.Fatalf("due %+v", res.Due)
	}
	res := mustPlan(t, p, now.Add(time.Minute), in)
	if h := res.Held[0]; h.Nodes[0] != "node-01" || !h.Start.Equal(t0.Add(5*time.Hour)) || h.Replans != 1 || h.Reason != reasonReplanned {
		t.Errorf("after the re-plan: %+v", h)
	}
}

// Renew keeps the reservations, copied: the old Planner's are unchanged.
func TestRenewKeepsReservations(t *testing.T) {
	p := mustNew(t, Config{Max: 1})
	in := Input{Nodes: gpuNodes(2, 8), Running: []Job{running("a", "node-00", 8, 0, 2*time.Hour), running("b", "node-01", 8, 0, 3*time.Hour)},
		Pending: []Request{request("big", 1, 8, time.Hour)}}
	first := mustPlan(t, p, t0, in)
	np, err := p.Renew(Config{Max: 2, MaxReplans: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Renew(Config{Max: -1}); err == nil {
		t.Error("Renew accepted Max -1")
	}
	res := mustPlan(t, np, t0.Add(time.Minute), in)
	if len(res.Held) != 1 || res.Held[0].Holder != "big" || !res.Held[0].Taken.Equal(t0) || !res.Held[0].Start.Equal(first.Held[0].Start) {
		t.Fatalf("renewed: %+v", res.Held)
	}
	np.held[0].Nodes[0] = "changed"
	if p.held[0].Nodes[0] != "node-00" {
		t.Error("Renew shares the nodes")
	}
}
