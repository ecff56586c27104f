package requeue_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

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
// Source is "requeue" when EngineConfig.Name is empty.
func TestDocClaimZeroEngine(t *testing.T) {
	now := t0.Add(time.Hour)
	in, model := dcWorld(t)
	var zero requeue.Engine
	got, err := zero.Run(now, in, model())
	if err != nil {
		t.Fatal(err)
	}
	var counter counter
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
	if n := counter.Count("requeue", eligibility.Reason("committed")); n != uint64(want.Commits) {
		t.Errorf("events of source %q with reason committed: %d, want %d", "requeue", n, want.Commits)
	}
}

// engineDefaults is the configuration the zero Engine runs with, defaults
// filled in, as Engine.Config shows it.
var engineDefaults = new(requeue.Engine).Config()

// EngineConfig's fields: "0 means the default, N"; Name: "requeue" when
// empty; Engine.Config shows the defaults in effect, keeps what was set,
// and an Engine built from it runs as the original does.
func TestDocClaimEngineDefaults(t *testing.T) {
	want := requeue.EngineConfig{MaxAttempts: 1_000_000, MaxChecks: 20_000_000, MaxFillFailures: 500, Name: "requeue"}
	if diff := cmp.Diff(want, engineDefaults); diff != "" {
		t.Errorf("defaults (-documented +Config):\n%s", diff)
	}
	set := requeue.EngineConfig{MaxVictims: 2, MaxAttempts: 7, MaxFillFailures: 1, MaxLostWork: 3600, Name: "mine", DefaultDelay: time.Minute}
	e, err := requeue.NewEngine(set)
	if err != nil {
		t.Fatal(err)
	}
	want = engineDefaults
	want.MaxVictims, want.MaxAttempts, want.MaxFillFailures, want.MaxLostWork, want.Name, want.DefaultDelay = 2, 7, 1, 3600, "mine", time.Minute
	if diff := cmp.Diff(want, e.Config()); diff != "" {
		t.Errorf("Config of a set engine (-want +got):\n%s", diff)
	}
	in, model := dcWorld(t)
	now := t0.Add(time.Hour)
	again, err := requeue.NewEngine(e.Config())
	if err != nil {
		t.Fatal(err)
	}
	a, errA := e.Run(now, in, model())
	b, errB := again.Run(now, in, model())
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	if diff := cmp.Diff(a, b, cmpopts.EquateErrors()); diff != "" {
		t.Errorf("an Engine built from Config runs otherwise (-original +rebuilt):\n%s", diff)
	}
}
