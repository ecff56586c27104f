package requeue

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestObserverCounter(t *testing.T) {
	var cnt ObserverCounter
	if cnt.Outcomes(OutcomeKept, OutcomeReasonNoFit) != 0 || cnt.Rollbacks() != 0 || len(cnt.Samples()) != 0 {
		t.Fatal("zero counter not empty")
	}
	c := gpuCluster(t, 2, fxJob{id: "v", gpus: []int64{4}, running: true}, fxJob{id: "w", gpus: []int64{4}, running: true},
		fxJob{id: "big", gpus: []int64{8, 1}}, fxJob{id: "p", gpus: []int64{4}})
	e, _ := NewEngine(EngineConfig{Observer: &cnt})
	_, err := e.Run(t0, EngineInput{
		Nominations: noms("x", "v", "w", "cold", "ghost"),
		Victims:     []Victim{{ID: "v"}, {ID: "w", Priority: 1}, {ID: "cold", NotBefore: t0.Add(time.Minute)}},
		Contenders:  []Contender{{ID: "big", Priority: 9}, {ID: "p", Priority: 5}},
	}, plainModel{c}) // without the Cluster's fit bound, so that big is tried and rolled back
	if err != nil {
		t.Fatal(err)
	}
	want := []ObserverSample{
		{OutcomeCommitted, OutcomeReasonCommitted, 1},
		{OutcomeKept, OutcomeReasonNoFit, 1},
		{OutcomeSkipped, OutcomeReasonCooldown, 1},
		{OutcomeSkipped, OutcomeReasonUnknownVictim, 1},
	}
	if d := cmp.Diff(want, cnt.Samples()); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	// big is rolled back in v's resources before and after p's placement,
	// then in w's.
	if cnt.Rollbacks() != 3 || cnt.Outcomes(OutcomeSkipped, OutcomeReasonCooldown) != 1 {
		t.Errorf("rollbacks %d, cooldown %d", cnt.Rollbacks(), cnt.Outcomes(OutcomeSkipped, OutcomeReasonCooldown))
	}
}

func TestOutcomeKindString(t *testing.T) {
	for k, want := range map[OutcomeKind]string{0: "none", OutcomeCommitted: "committed", OutcomeKept: "kept", OutcomeSkipped: "skipped", OutcomeDeferred: "deferred", 99: "invalid"} {
		if got := k.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", k, got, want)
		}
	}
}
