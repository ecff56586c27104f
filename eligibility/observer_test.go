package eligibility_test

import (
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/eligibility"
)

func TestCounterConcurrentAndSamples(t *testing.T) {
	var c eligibility.Counter
	if got := c.Samples(); len(got) != 0 {
		t.Errorf("zero Counter: %v", got)
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				c.ObserveNomination(eligibility.Nomination{Nominator: "expectedruntime"})
				c.ObserveSkip(eligibility.Skip{Nominator: "expectedruntime", Reason: eligibility.ReasonCooldown})
				c.ObserveSkip(eligibility.Skip{Nominator: "other", Reason: eligibility.ReasonNotRunning})
				c.ObserveSkip(eligibility.Skip{Nominator: "other", Reason: eligibility.Reason(250)}) // ignored
				_ = c.Nominations("expectedruntime")
			}
		}()
	}
	wg.Wait()
	want := []eligibility.Sample{
		{Name: eligibility.MetricSkipped, Plugin: "expectedruntime", Reason: "cooldown", Value: 400},
		{Name: eligibility.MetricSkipped, Plugin: "other", Reason: "not_running", Value: 400},
		{Name: eligibility.MetricNominations, Plugin: "expectedruntime", Value: 400},
	}
	if diff := cmp.Diff(want, c.Samples()); diff != "" {
		t.Errorf("Samples (-want +got):\n%s", diff)
	}
	if got := c.Skipped("other", eligibility.Reason(250)); got != 0 {
		t.Errorf("invalid reason counted: %d", got)
	}
	if s := want[1].String(); s != `requeue_nomination_skipped_total{plugin="other",reason="not_running"} 400` {
		t.Errorf("Sample.String() = %s", s)
	}
}
