package eligibility_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
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
	for _, tc := range good {
		got, err := eligibility.ParseNotBefore(tc.in)
		if err != nil || !got.Equal(tc.want) || got.Location() != time.UTC {
			t.Errorf("ParseNotBefore(%q) = %v, %v; want %v UTC", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{"", "2025-01-15", "2025-01-15 10:30:00Z", "10m", "2025-01-15T10:30:00", "2025-13-15T10:30:00Z"} {
		_, err := eligibility.ParseNotBefore(in)
		var ae *eligibility.AnnotationError
		if !errors.As(err, &ae) || ae.Key != eligibility.AnnotationRequeueNotBefore || ae.Value != in || !strings.HasPrefix(err.Error(), "eligibility: ") {
			t.Errorf("ParseNotBefore(%q) error = %v, want an *AnnotationError for the not-before key", in, err)
		}
	}
}

// FuzzNotBefore: parsing never panics; whatever parses formats to a value
// that parses back to an instant at or after it, less than a second later.
func FuzzNotBefore(f *testing.F) {
	for _, s := range []string{"2025-01-15T10:30:00Z", "2025-01-15T10:30:00.000000001+14:00", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.9Z", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := eligibility.ParseNotBefore(s)
		if err != nil {
			return
		}
		text := eligibility.FormatNotBefore(got)
		back, err := eligibility.ParseNotBefore(text)
		if err != nil {
			if y := eligibility.NotBeforeCeil(got).Year(); y >= 0 && y <= 9999 {
				t.Fatalf("FormatNotBefore(%v) = %q does not parse: %v", got, text, err)
			}
			return
		}
		if back.Before(got) || back.Sub(got) >= time.Second {
			t.Fatalf("%q -> %v -> %q -> %v: not the next whole second", s, got, text, back)
		}
	})
}
