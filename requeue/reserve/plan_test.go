package reserve

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/eligibility"
)

func TestNewReportsEveryProblem(t *testing.T) {
	_, err := New(Config{Max: -1, After: -time.Second, MinUnits: -1, MaxReplans: -2})
	if err == nil {
		t.Fatal("New accepted a config with four problems")
	}
	for _, want := range []string{"Max -1", "After -1s", "MinUnits -1", "MaxReplans -2"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	if _, err := New(Config{}); err != nil {
		t.Errorf("the zero Config: %v", err)
	}
}

func TestZeroConfigHoldsNothing(t *testing.T) {
	p := mustNew(t, Config{})
	in := Input{Nodes: gpuNodes(2, 8), Running: []Job{running("a", "node-00", 8, time.Hour, 2*time.Hour)},
		Pending: []Request{request("big", 2, 8, 48*time.Hour)}}
	res := mustPlan(t, p, t0, in)
	if len(res.Held) != 0 {
		t.Fatalf("the zero Config took %v", res.Held)
	}
	if d := p.Backfill(t0, &in.Pending[0], "node-01"); !d.Allowed {
		t.Errorf("Backfill on an unreserved node: %v", d)
	}
}

// The planned start is the latest of the expected end, the protection end
// and the not-before gate of each job that must leave, and now for one
// the engine may evict now.
func TestPlannedStartRules(t *testing.T) {
	type job struct {
		expected  time.Duration // since a start 1h ago
		protected time.Duration // from now; 0: none
		notBefore time.Duration // from now; 0: none
	}
	for _, tc := range []struct {
		name string
		job  job
		want time.Duration // from now; -1: no reservation
	}{
		{"expected end ahead", job{expected: 3 * time.Hour}, 2 * time.Hour},
		{"past its expected end: now", job{expected: 30 * time.Minute}, 0},
		{"exactly at its expected end: now", job{expected: time.Hour}, 0},
		{"protection after the expected end", job{expected: 2 * time.Hour, protected: 5 * time.Hour}, 5 * time.Hour},
		{"protection before the expected end", job{expected: 4 * time.Hour, protected: time.Hour}, 3 * time.Hour},
		{"overrunning but protected", job{expected: 30 * time.Minute, protected: 10 * time.Minute}, 10 * time.Minute},
		{"not-before gate", job{expected: 30 * time.Minute, notBefore: 20 * time.Minute}, 20 * time.Minute},
		{"no expected runtime", job{}, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := running("a", "node-00", 8, time.Hour, tc.job.expected)
			if tc.job.protected > 0 {
				j.ProtectedUntil = t0.Add(tc.job.protected)
			}
			if tc.job.notBefore > 0 {
				j.NotBefore = t0.Add(tc.job.notBefore)
			}
			p := mustNew(t, Config{Max: 1})
			res := mustPlan(t, p, t0, Input{Nodes: gpuNodes(1, 8), Running: []Job{j}, Pending: []Request{request("big", 1, 8, time.Hour)}})
			if tc.want < 0 {
				if len(res.Held) != 0 {
					t.Fatalf("held %+v, want none", res.Held)
				}
				return
			}
			if len(res.Held) != 1 {
				t.Fatalf("held %d reservations, want 1", len(res.Held))
			}
			if got := res.Held[0].Start.Sub(t0); got != tc.want {
				t.Errorf("planned start now+%v, want now+%v", got, tc.want)
			}
		})
	}
}

// A node frees a task's units at the first release after which its free
// units reach them; the request takes the k earliest nodes.
func TestPlannedStartIsTheKthEarliestNode(t *testing.T) {
	in := Input{Nodes: gpuNodes(3, 8), Running: []Job{
		running("a", "node-00", 4, 0, 3*time.Hour), // node-00: 4 free now, 8 at +3h
		running("b", "node-01", 2, 0, 1*time.Hour), // node-01: 2 free now; 4 at +1h, 8 at +2h
		running("c", "node-01", 4, 0, 2*time.Hour),
		running("d", "node-02", 8, 0, 5*time.Hour), // node-02: 8 at +5h
	}, Pending: []Request{request("g", 2, 8, time.Hour)}}
	res := mustPlan(t, mustNew(t, Config{Max: 1}), t0, in)
	want := Reservation{Holder: "g", Nodes: []string{"node-00", "node-01"}, Start: t0.Add(3 * time.Hour), Taken: t0, Reason: reasonTaken}
	if diff := cmp.Diff([]Reservation{want}, res.Held); diff != "" {
		t.Errorf("held (-want +got):\n%s", diff)
	}
	// 4 units a task: node-00 now, node-01 at +1h.
	in.Pending[0].Units = 4
	res = mustPlan(t, mustNew(t, Config{Max: 1}), t0, in)
	if got := res.Held[0].Start; !got.Equal(t0.Add(time.Hour)) {
		t.Errorf("4-unit tasks: start %v, want now+1h", got.Sub(t0))
	}
}

// Of the nodes ready by the planned start, the plan takes those whose
// evictions lose the least work; jobs expected to end lose none.
func TestTieBrokenByLeastLostWork(t *testing.T) {
	over := running("over", "node-00", 8, 10*time.Hour, time.Hour) // past its end: requeued, loses 10h
	over.Resources = 8
	ckpt := running("ckpt", "node-01", 8, 10*time.Hour, time.Hour) // checkpointed 1h ago: loses 1h
	ckpt.Resources = 8
	ckpt.LastCheckpoint = t0.Add(-time.Hour)
	in := Input{Nodes: gpuNodes(2, 8), Running: []Job{over, ckpt}, Pending: []Request{request("g", 1, 8, time.Hour)}}
	res := mustPlan(t, mustNew(t, Config{Max: 1}), t0, in)
	if got := res.Held[0]; got.Nodes[0] != "node-01" || got.LostWork != 8*3600 || !got.Start.Equal(t0) {
		t.Errorf("took %v at now+%v losing %v, want node-01 at now losing 28800", got.Nodes, got.Start.Sub(t0), got.LostWork)
	}
}

func TestOneDomain(t *testing.T) {
	nodes := gpuNodes(4, 8)
	nodes[0].Domain, nodes[1].Domain, nodes[2].Domain = "rack-a", "rack-b", "rack-b"
	in := Input{Nodes: nodes, Running: []Job{running("a", "node-02", 8, 0, 2*time.Hour)},
		Pending: []Request{request("g", 2, 8, time.Hour)}}
	in.Pending[0].OneDomain = true
	res := mustPlan(t, mustNew(t, Config{Max: 1}), t0, in)
	// node-00 and node-03 are free now but not of one domain; rack-b frees at +2h.
	if diff := cmp.Diff([]string{"node-01", "node-02"}, res.Held[0].Nodes); diff != "" || !res.Held[0].Start.Equal(t0.Add(2*time.Hour)) {
		t.Errorf("nodes (-want +got):\n%s start now+%v", diff, res.Held[0].Start.Sub(t0))
	}
}

// A job qualifies at exactly Queued + After; MinUnits and MinPriority are
// inclusive.
func TestQualifyBoundaries(t *testing.T) {
	in := Input{Nodes: gpuNodes(1, 8), Running: []Job{running("a", "node-00", 8, 0, time.Hour)}}
	for _, tc := range []struct {
		name   string
		cfg    Config
		req    Request
		holds  bool
		wakeIn time.Duration
	}{
		{"waited After exactly", Config{Max: 1, After: time.Hour}, request("g", 1, 8, time.Hour), true, time.Hour},
		{"waited 1ns less", Config{Max: 1, After: time.Hour}, request("g", 1, 8, time.Hour-1), false, 1},
		{"MinUnits exactly", Config{Max: 1, MinUnits: 8}, request("g", 1, 8, time.Hour), true, time.Hour},
		{"MinUnits plus one", Config{Max: 1, MinUnits: 9}, request("g", 1, 8, time.Hour), false, 0},
		{"MinPriority exactly", Config{Max: 1, MinPriority: 1, HasMinPriority: true}, request("g", 1, 8, time.Hour), true, time.Hour},
		{"MinPriority above", Config{Max: 1, MinPriority: 2, HasMinPriority: true}, request("g", 1, 8, time.Hour), false, 0},
		{"MinPriority unset admits negative", Config{Max: 1}, func() Request { r := request("g", 1, 8, time.Hour); r.Priority = -5; return r }(), true, time.Hour},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in.Pending = []Request{tc.req}
			res := mustPlan(t, mustNew(t, tc.cfg), t0, in)
			if got := len(res.Held) == 1; got != tc.holds {
				t.Fatalf("holds %v, want %v", got, tc.holds)
			}
			var want time.Time
			if tc.wakeIn > 0 {
				want = t0.Add(tc.wakeIn)
			}
			if !res.Wake.Equal(want) {
				t.Errorf("Wake now+%v, want now+%v", res.Wake.Sub(t0), tc.wakeIn)
			}
		})
	}
}

func TestMaxHoldersInQueueOrder(t *testing.T) {
	in := Input{Nodes: gpuNodes(4, 8), Running: []Job{
		running("a", "node-00", 8, 0, time.Hour), running("b", "node-01", 8, 0, 2*time.Hour),
		running("c", "node-02", 8, 0, 3*time.Hour), running("d", "node-03", 8, 0, 4*time.Hour)},
		Pending: []Request{request("p1", 1, 8, time.Hour), request("p2", 1, 8, time.Hour), request("p3", 1, 8, time.Hour)}}
	res := mustPlan(t, mustNew(t, Config{Max: 2}), t0, in)
	got := []string{}
	for _, h := range res.Held {
		got = append(got, h.Holder+"@"+h.Nodes[0])
	}
	if diff := cmp.Diff([]string{"p1@node-00", "p2@node-01"}, got); diff != "" {
		t.Errorf("holders (-want +got):\n%s", diff)
	}
}

func TestBadRequestsAreSkippedWithAReason(t *testing.T) {
	var ev events
	in := Input{Nodes: gpuNodes(2, 8), Running: []Job{running("r", "node-00", 8, 0, time.Hour)},
		Pending: []Request{request("", 1, 8, time.Hour), request("zero", 0, 8, time.Hour), request("nounits", 1, 0, time.Hour),
			request("huge", 1, 9, time.Hour), request("ok", 1, 8, time.Hour)}}
	res := mustPlan(t, mustNew(t, Config{Max: 3, Observer: &ev}), t0, in)
	if len(res.Held) != 1 || res.Held[0].Holder != "ok" {
		t.Fatalf("held %+v, want ok alone", res.Held)
	}
	for job, want := range map[string]eligibility.Reason{"": reasonBadRequest, "zero": reasonBadRequest, "nounits": reasonBadRequest,
		"huge": reasonNoPlannedStart} {
		if diff := cmp.Diff([]eligibility.Reason{want}, ev.reasons(job)); diff != "" {
			t.Errorf("%q (-want +got):\n%s", job, diff)
		}
	}
}

// Bad data never panics and fails closed: negative units make a node
// unplannable; a job on an unknown node is left out.
func TestBadRunningData(t *testing.T) {
	in := Input{Nodes: append(gpuNodes(2, 8), Node{Name: "node-00", Capacity: 100}), Running: []Job{
		running("neg", "node-00", -8, 0, time.Hour), running("ghost", "nowhere", 8, 0, time.Hour),
		running("b", "node-01", 8, 0, 2*time.Hour)}, Pending: []Request{request("g", 1, 8, time.Hour)}}
	res := mustPlan(t, mustNew(t, Config{Max: 1}), t0, in)
	if len(res.Held) != 1 || res.Held[0].Nodes[0] != "node-01" || !res.Held[0].Start.Equal(t0.Add(2*time.Hour)) {
		t.Errorf("held %+v, want node-01 at now+2h", res.Held)
	}
}
