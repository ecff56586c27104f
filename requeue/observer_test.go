package requeue

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tenurepolicy/tenure/eligibility"
)

// TestEngineCounter: eligibility's Counter, tenure's one ready observer,
// counts the engine's outcomes and rollbacks by the engine's Name.
func TestEngineCounter(t *testing.T) {
	var cnt eligibility.Counter
	c := gpuCluster(t, 2, fxJob{id: "v", gpus: []int64{4}, running: true}, fxJob{id: "w", gpus: []int64{4}, running: true},
		fxJob{id: "big", gpus: []int64{8, 1}}, fxJob{id: "p", gpus: []int64{4}})
	e, _ := NewEngine(EngineConfig{Observer: &cnt, Name: "rq"})
	_, err := e.Run(t0, EngineInput{
		Nominations: noms("x", "v", "w", "cold", "ghost"),
		Victims:     []Victim{{ID: "v"}, {ID: "w", Priority: 1}, {ID: "cold", NotBefore: t0.Add(time.Minute)}},
		Contenders:  []Contender{{ID: "big", Priority: 9}, {ID: "p", Priority: 5}},
	}, plainModel{c}) // without the Cluster's fit bound, so that big is tried and rolled back
	if err != nil {
		t.Fatal(err)
	}
	want := []eligibility.Sample{
		{Source: "rq", Reason: ReasonCommitted, Value: 1},
		{Source: "rq", Reason: eligibility.ReasonCooldown, Value: 1},
		{Source: "rq", Reason: ReasonNoFit, Value: 1},
		// big is rolled back in v's resources before and after p's
		// placement, then in w's.
		{Source: "rq", Reason: ReasonRolledBack, Value: 3},
		{Source: "rq", Reason: ReasonUnknownVictim, Value: 1},
	}
	if d := cmp.Diff(want, cnt.Samples()); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestOutcomeKindString(t *testing.T) {
	for k, want := range map[OutcomeKind]string{0: "none", OutcomeCommitted: "committed", OutcomeKept: "kept", OutcomeSkipped: "skipped", OutcomeDeferred: "deferred", 99: "invalid"} {
		if got := k.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", k, got, want)
		}
	}
}
