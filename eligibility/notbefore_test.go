package eligibility_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
)

var t0 = time.Date(2025, 1, 15, 10, 0, 0, 0, time.UTC)

func TestFormatNotBefore(t *testing.T) {
	paris := time.FixedZone("CET", 3600)
	tests := []struct {
		in   time.Time
		want string
	}{
		{t0, "2025-01-15T10:00:00Z"},
		{t0.Add(time.Nanosecond), "2025-01-15T10:00:01Z"},        // rounded up, never down
		{t0.Add(999 * time.Millisecond), "2025-01-15T10:00:01Z"}, // not to nearest
		{t0.Add(time.Second), "2025-01-15T10:00:01Z"},
		{t0.Add(-time.Nanosecond), "2025-01-15T10:00:00Z"},
		{t0.In(paris), "2025-01-15T10:00:00Z"}, // always UTC
	}
	for _, tc := range tests {
		if got := eligibility.FormatNotBefore(tc.in); got != tc.want {
			t.Errorf("FormatNotBefore(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestParseNotBefore: the nominator reads the gate in RFC3339 or
// RFC3339Nano, any offset, in UTC (cooldown until the instant); anything
// else is invalid_not_before with an error naming the key and the value.
func TestParseNotBefore(t *testing.T) {
	good := []struct {
		in   string
		want time.Time
	}{
		{"2025-01-15T10:30:00Z", t0.Add(30 * time.Minute)},
		{"2025-01-15T10:30:00.5Z", t0.Add(30*time.Minute + 500*time.Millisecond)},
		{"2025-01-15T10:30:00.123456789Z", t0.Add(30*time.Minute + 123456789)},
		{"2025-01-15T11:30:00+01:00", t0.Add(30 * time.Minute)},
	}
	job := func(nb string) eligibility.Job {
		return eligibility.Job{ID: "j", Running: true, Preemptible: true, Start: t0.Add(-time.Hour),
			Annotations: map[string]string{expectedruntime.AnnotationExpectedRuntime: "1m", eligibility.AnnotationRequeueNotBefore: nb}}
	}
	var n expectedruntime.Nominator
	for _, tc := range good {
		j := job(tc.in)
		o := n.Evaluate(&j, t0)
		if o.Reason != eligibility.ReasonCooldown || !o.Until.Equal(tc.want) || o.Until.Location() != time.UTC {
			t.Errorf("%q: %v, want cooldown until %v UTC", tc.in, o.Decision, tc.want)
		}
	}
	for _, in := range []string{"", "2025-01-15", "2025-01-15 10:30:00Z", "10m", "2025-01-15T10:30:00", "2025-13-15T10:30:00Z"} {
		j := job(in)
		o := n.Evaluate(&j, t0)
		want := `eligibility: annotation "` + eligibility.AnnotationRequeueNotBefore + `": invalid value ` + strconv.Quote(in) + ": not an RFC3339 timestamp"
		if o.Reason != expectedruntime.ReasonInvalidNotBefore || o.Skip.Err == nil || !strings.HasPrefix(o.Skip.Err.Error(), want) {
			t.Errorf("%q: %v, %v; want invalid_not_before naming the key and value", in, o.Decision, o.Skip.Err)
		}
	}
}

// FuzzNotBefore: whatever the nominator's grammar (RFC3339Nano) reads
// formats to a value that reads back to an instant at or after it, less
// than a second later.
func FuzzNotBefore(f *testing.F) {
	for _, s := range []string{"2025-01-15T10:30:00Z", "2025-01-15T10:30:00.000000001+14:00", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.9Z", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return
		}
		text := eligibility.FormatNotBefore(got)
		back, err := time.Parse(time.RFC3339Nano, text)
		if err != nil {
			if y := got.UTC().Add(time.Second - 1).Year(); y >= 0 && y <= 9999 {
				t.Fatalf("FormatNotBefore(%v) = %q does not parse: %v", got, text, err)
			}
			return
		}
		if back.Before(got) || back.Sub(got) >= time.Second {
			t.Fatalf("%q -> %v -> %q -> %v: not the next whole second", s, got, text, back)
		}
	})
}
