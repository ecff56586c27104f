package eligibility_test

import (
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
)

func TestEarliest(t *testing.T) {
	var zero time.Time
	tests := []struct {
		in   []time.Time
		want time.Time
	}{
		{nil, zero},
		{[]time.Time{zero, zero}, zero},
		{[]time.Time{elMin(5)}, elMin(5)},
		{[]time.Time{zero, elMin(5), elMin(3), zero, elMin(4)}, elMin(3)},
		{[]time.Time{elMin(3), elMin(3).Add(time.Nanosecond)}, elMin(3)},
		{[]time.Time{elMin(3).Add(time.Nanosecond), zero, elMin(3)}, elMin(3)},
	}
	for i, tc := range tests {
		if got := eligibility.Earliest(tc.in...); !got.Equal(tc.want) {
			t.Errorf("%d: Earliest = %v, want %v", i, got, tc.want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { _ = eligibility.Earliest(elMin(1), zero, elMin(2)) }); n != 0 {
		t.Errorf("Earliest allocates %v", n)
	}
}

func TestDecisionString(t *testing.T) {
	d := eligibility.Decision{Reason: eligibility.ReasonCooldown, Until: elMin(90)}
	if got, want := d.String(), "denied (cooldown) until "+elMin(90).UTC().Format(time.RFC3339Nano); got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	if got := (eligibility.Decision{Allowed: true, Reason: eligibility.Reason("nominated")}).String(); got != "allowed (nominated)" {
		t.Errorf("String = %q", got)
	}
}
