package reserve

import (
	"math"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
)

// reservedWorld holds node-00 for "big" from now+2h; node-01 is free.
func reservedWorld(t *testing.T, cfg Config) (*Planner, Input) {
	t.Helper()
	cfg.Max = 1
	in := Input{Nodes: gpuNodes(2, 8), Running: []Job{running("a", "node-00", 8, 0, 2*time.Hour), running("b", "node-01", 8, 0, 3*time.Hour)},
		Pending: []Request{request("big", 1, 8, time.Hour)}}
	p := mustNew(t, cfg)
	res := mustPlan(t, p, t0, in)
	if len(res.Held) != 1 || res.Held[0].Nodes[0] != "node-00" || !res.Held[0].Start.Equal(t0.Add(2*time.Hour)) {
		t.Fatalf("held %+v", res.Held)
	}
	in.Running = in.Running[1:] // a left early: node-00 is free, still reserved
	return p, in
}

// Backfill's boundaries: a job may take a reserved node when it leaves by
// the planned start, exactly at it included, by its expected runtime and
// by its protection; never without an expected runtime.
func TestBackfillBoundaries(t *testing.T) {
	p, _ := reservedWorld(t, Config{})
	start := t0.Add(2 * time.Hour)
	job := func(expected, minRuntime time.Duration) *Request {
		r := request("small", 1, 1, 0)
		r.Expected, r.MinRuntime = expected, minRuntime
		return &r
	}
	for _, tc := range []struct {
		name string
		now  time.Time
		req  *Request
		node string
		want eligibility.Decision
	}{
		{"ends at the start", t0, job(2*time.Hour, 0), "node-00", eligibility.Decision{Allowed: true, Reason: reasonBackfill}},
		{"ends 1ns after", t0, job(2*time.Hour+1, 0), "node-00", eligibility.Decision{Reason: ReasonReserved, Until: start}},
		{"protected until the start", t0, job(time.Hour, 2*time.Hour), "node-00", eligibility.Decision{Allowed: true, Reason: reasonBackfill}},
		{"protected 1ns past it", t0, job(time.Hour, 2*time.Hour+1), "node-00", eligibility.Decision{Reason: ReasonReserved, Until: start}},
		{"no expected runtime", t0, job(0, 0), "node-00", eligibility.Decision{Reason: ReasonNoExpectedRuntime, Until: start}},
		{"later, less time left", t0.Add(time.Hour), job(time.Hour+1, 0), "node-00", eligibility.Decision{Reason: ReasonReserved, Until: start}},
		{"at the start: no Until", start, job(time.Nanosecond, 0), "node-00", eligibility.Decision{Reason: ReasonReserved}},
		{"at the start, no expected runtime", start, job(0, 0), "node-00", eligibility.Decision{Reason: ReasonNoExpectedRuntime}},
		{"a node not reserved", t0, job(0, 0), "node-01", eligibility.Decision{Allowed: true, Reason: reasonNotReserved}},
		{"the holder", t0, &Request{Contender: request("big", 1, 8, 0).Contender}, "node-00", eligibility.Decision{Allowed: true, Reason: reasonHolder}},
		{"an unknown node", t0, job(time.Minute, 0), "node-99", eligibility.Decision{Reason: ReasonUnknownNode}},
		{"a nil request", t0, nil, "node-00", eligibility.Decision{Reason: ReasonUnknownNode}},
		{"at the last instant", time.Unix(0, math.MaxInt64), job(time.Hour, 0), "node-00", eligibility.Decision{Reason: ReasonReserved}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := p.Backfill(tc.now, tc.req, tc.node); got != tc.want {
				t.Errorf("Backfill = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestBackfillAllocatesNothing(t *testing.T) {
	p, _ := reservedWorld(t, Config{})
	r := request("small", 1, 1, 0)
	r.Expected = time.Hour
	if n := testing.AllocsPerRun(100, func() { p.Backfill(t0, &r, "node-00") }); n != 0 {
		t.Errorf("Backfill allocates %v times", n)
	}
}
