package policies_test

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/policies"
)

// A compared policy is a tenure.Policy built from the run's configuration;
// each decision goes through a Cycle begun at the simulated instant. Here
// an LS job wants the GPU of a BE job of team be-a that started at t0, and
// be is protected for 5m against reclaims.
func ExampleNew() {
	set := policies.Settings{MinRuntime: []policies.QueueDuration{{Queue: "be", D: 5 * time.Minute}}}
	p, err := policies.New("minruntime", policies.TenureConfig(3, set), set)
	if err != nil {
		panic(err)
	}
	beA, _ := p.Tenure.QueueID("be-a")
	lsA, _ := p.Tenure.QueueID("ls-a")
	t0 := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
	victim := &eligibility.Job{ID: "be-job", Queue: beA, Running: true, Preemptible: true, Start: t0}
	for _, at := range []time.Duration{4 * time.Minute, 5 * time.Minute} {
		c := p.Tenure.BeginAt(t0.Add(at))
		if ok, _, until := p.MayEvict(c, false, lsA, victim); ok {
			fmt.Printf("at +%v: may evict\n", at)
		} else {
			fmt.Printf("at +%v: protected until +%v (Cycle.Wake +%v)\n", at, until.Sub(t0), c.Wake().Sub(t0))
		}
	}
	// Output:
	// at +4m0s: protected until +5m0s (Cycle.Wake +5m0s)
	// at +5m0s: may evict
}
