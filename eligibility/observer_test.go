package eligibility_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/eligibility"
)

func TestObserverFunc(t *testing.T) {
	var got []string
	var o eligibility.Observer = eligibility.ObserverFunc(func(e eligibility.Event) { got = append(got, e.Source+"/"+e.Job+"/"+e.Reason.String()) })
	o.Observe(eligibility.Event{Source: "s", Job: "j", Decision: eligibility.Decision{Reason: eligibility.ReasonCooldown}})
	if diff := cmp.Diff([]string{"s/j/cooldown"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
