package requeue_test

import (
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/requeue"
)

// The tests in this file check claims of doc comments that a comment audit
// (a seeded random sample of twenty exported names) found checkable and
// not yet pinned by a test.

// dcWorld: three nodes of 4 GPUs, each full with two 2-GPU victims, and
// three contenders of 4 GPUs: several set searches, each over several
// victims.
func dcWorld(t *testing.T) (requeue.EngineInput, func() requeue.Model) {
	t.Helper()
	var in requeue.EngineInput
	var jobs []fxJob
	for _, id := range []string{"v1", "v2", "v3", "v4", "v5", "v6"} {
		in.Nominations = append(in.Nominations, requeue.VictimNomination{Job: id, Nominator: "n"})
		in.Victims = append(in.Victims, requeue.Victim{ID: id, Priority: 1, Start: t0})
		jobs = append(jobs, fxJob{id: id, gpus: []int64{2}, running: true})
	}
	for _, id := range []string{"c1", "c2", "c3"} {
		in.Contenders = append(in.Contenders, requeue.Contender{ID: id, Priority: 5, Queued: t0})
		jobs = append(jobs, fxJob{id: id, gpus: []int64{4}})
	}
	return in, func() requeue.Model { return gpuCluster(t, 3, jobs...) }
}

// VictimFilter: "the engine does not ask twice about one pair in a pass";
// "the first denial wins"; ReasonFiltered: a denial without a reason.
func TestDocClaimVictimFilter(t *testing.T) {
	now := t0.Add(time.Hour)
	in, model := dcWorld(t)
	asked := map[[2]string]int{}
	count := requeue.VictimFilterFunc(func(_ time.Time, v *requeue.Victim, c *requeue.Contender) eligibility.Decision {
		asked[[2]string{v.ID, c.ID}]++
		return eligibility.Decision{Allowed: v.ID != "v1", Reason: "first"}
	})
	second := requeue.VictimFilterFunc(func(_ time.Time, v *requeue.Victim, _ *requeue.Contender) eligibility.Decision {
		if v.ID == "v3" {
			return eligibility.Decision{} // denied, no reason
		}
		return eligibility.Decision{Allowed: v.ID != "v1", Reason: "second"}
	})
	e, err := requeue.NewEngine(requeue.EngineConfig{Filters: []requeue.VictimFilter{count, second}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(now, in, model())
	if err != nil {
		t.Fatal(err)
	}
	if len(asked) == 0 {
		t.Fatal("the filter was never asked")
	}
	for pair, n := range asked {
		if n > 1 {
			t.Errorf("pair %v asked %d times", pair, n)
		}
	}
	got := map[string]eligibility.Reason{}
	for _, o := range res.Outcomes {
		got[o.Job] = o.Reason
	}
	if got["v1"] != "first" || got["v3"] != requeue.ReasonFiltered {
		t.Errorf("v1 %q (want the first filter's reason), v3 %q (want filtered); all: %v", got["v1"], got["v3"], got)
	}
}

// Engine: "The zero Engine runs with the zero EngineConfig"; its events'
// Source is DefaultEngineName when EngineConfig.Name is empty.
func TestDocClaimZeroEngine(t *testing.T) {
	now := t0.Add(time.Hour)
	in, model := dcWorld(t)
	var zero requeue.Engine
	got, err := zero.Run(now, in, model())
	if err != nil {
		t.Fatal(err)
	}
	var counter eligibility.Counter
	e, err := requeue.NewEngine(requeue.EngineConfig{Observer: &counter})
	if err != nil {
		t.Fatal(err)
	}
	want, err := e.Run(now, in, model())
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Outcomes) != len(want.Outcomes) || got.Commits != want.Commits || got.Commits == 0 {
		t.Errorf("zero Engine: %d outcomes, %d commits; NewEngine(EngineConfig{}): %d, %d", len(got.Outcomes), got.Commits, len(want.Outcomes), want.Commits)
	}
	if n := counter.Count(requeue.DefaultEngineName, requeue.ReasonCommitted); n != uint64(want.Commits) {
		t.Errorf("events of source %q with reason committed: %d, want %d", requeue.DefaultEngineName, n, want.Commits)
	}
}
