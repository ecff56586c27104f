package requeue_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/requeue"
)

// TestEngineCounter: eligibility's Counter, tenure's one ready observer,
// counts the engine's outcomes and rollbacks by the engine's Name.
func TestEngineCounter(t *testing.T) {
	var cnt counter
	c := gpuCluster(t, 2, fxJob{id: "v", gpus: []int64{4}, running: true}, fxJob{id: "w", gpus: []int64{4}, running: true},
		fxJob{id: "big", gpus: []int64{8, 1}}, fxJob{id: "p", gpus: []int64{4}})
	e, _ := requeue.NewEngine(requeue.EngineConfig{Observer: &cnt, Name: "rq"})
	_, err := e.Run(t0, requeue.EngineInput{
		Nominations: noms("x", "v", "w", "cold", "ghost"),
		Victims:     []requeue.Victim{{ID: "v"}, {ID: "w", Priority: 1}, {ID: "cold", NotBefore: t0.Add(time.Minute)}},
		Contenders:  []requeue.Contender{{ID: "big", Priority: 9}, {ID: "p", Priority: 5}},
	}, plainModel{c}) // without the Cluster's fit bound, so that big is tried and rolled back
	if err != nil {
		t.Fatal(err)
	}
	want := []sample{
		{Source: "rq", Reason: eligibility.Reason("committed"), Value: 1},
		{Source: "rq", Reason: eligibility.ReasonCooldown, Value: 1},
		{Source: "rq", Reason: eligibility.Reason("no_fit"), Value: 1},
		// big's set search: big does not fit with v evicted, nor with w
		// too.
		{Source: "rq", Reason: eligibility.Reason("rolled_back"), Value: 2},
		{Source: "rq", Reason: requeue.ReasonUnknownVictim, Value: 1},
	}
	if d := cmp.Diff(want, cnt.Samples()); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestOutcomeKindString(t *testing.T) {
	for k, want := range map[requeue.OutcomeKind]string{0: "none", requeue.OutcomeCommitted: "committed", requeue.OutcomeKept: "kept", requeue.OutcomeSkipped: "skipped", requeue.OutcomeDeferred: "deferred", 99: "invalid"} {
		if got := k.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", k, got, want)
		}
	}
}
