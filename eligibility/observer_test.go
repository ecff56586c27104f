package eligibility_test

import (
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
)

func TestCounterConcurrentAndSamples(t *testing.T) {
	var c eligibility.Counter
	if got := c.Samples(); len(got) != 0 {
		t.Errorf("zero Counter: %v", got)
	}
	nominated := eligibility.Decision{Allowed: true, Reason: expectedruntime.ReasonNominated}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				c.Observe(eligibility.Event{Source: "expectedruntime", Job: "a", Decision: nominated})
				c.Observe(eligibility.Event{Source: "expectedruntime", Decision: eligibility.Decision{Reason: eligibility.ReasonCooldown}})
				c.Observe(eligibility.Event{Source: "other", Decision: eligibility.Decision{Reason: expectedruntime.ReasonNotRunning}})
				c.Observe(eligibility.Event{Source: "requeue", Decision: eligibility.Decision{Reason: "no_fit"}})
				c.Observe(eligibility.Event{Source: "other", Decision: eligibility.Decision{Reason: "Not A Label"}}) // ignored
				c.Observe(eligibility.Event{Source: "other"})                                                        // ignored
				_ = c.Count("expectedruntime", expectedruntime.ReasonNominated)
			}
		}()
	}
	wg.Wait()
	want := []eligibility.Sample{
		{Source: "expectedruntime", Reason: "cooldown", Value: 400},
		{Source: "expectedruntime", Reason: "nominated", Value: 400},
		{Source: "other", Reason: "invalid", Value: 800},
		{Source: "other", Reason: "not_running", Value: 400},
		{Source: "requeue", Reason: "no_fit", Value: 400},
	}
	if diff := cmp.Diff(want, c.Samples()); diff != "" {
		t.Errorf("Samples (-want +got):\n%s", diff)
	}
	if got := c.Count("expectedruntime", expectedruntime.ReasonNominated); got != 400 {
		t.Errorf("Count(nominated) = %d", got)
	}
	if got := c.Count("expectedruntime", eligibility.ReasonCooldown); got != 400 {
		t.Errorf("Count(cooldown) = %d", got)
	}
	if got := c.Count("other", "Not A Label") + c.Count("other", ""); got != 0 {
		t.Errorf("invalid reason counted under its own label: %d", got)
	}
	if s := want[3].String(); s != `tenure_decisions_total{source="other",reason="not_running"} 400` {
		t.Errorf("Sample.String() = %s", s)
	}
}

func TestObserverFunc(t *testing.T) {
	var got []string
	var o eligibility.Observer = eligibility.ObserverFunc(func(e eligibility.Event) { got = append(got, e.Source+"/"+e.Job+"/"+e.Reason.String()) })
	o.Observe(eligibility.Event{Source: "s", Job: "j", Decision: eligibility.Decision{Reason: eligibility.ReasonCooldown}})
	if diff := cmp.Diff([]string{"s/j/cooldown"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestSampleStringEscapes(t *testing.T) {
	s := eligibility.Sample{Source: "a\"b\\c\nd\x00", Reason: "x", Value: 1}
	if got, want := s.String(), `tenure_decisions_total{source="a\"b\\c\nd`+"\x00"+`",reason="x"} 1`; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
}

func TestCounterObserveAllocs(t *testing.T) {
	var c eligibility.Counter
	e := eligibility.Event{Source: "s", Job: "j", Decision: eligibility.Decision{Reason: eligibility.ReasonCooldown}}
	c.Observe(e)
	if n := testing.AllocsPerRun(100, func() { c.Observe(e) }); n != 0 {
		t.Errorf("Observe allocates %v after the first event", n)
	}
}
