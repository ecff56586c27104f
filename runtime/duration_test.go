package runtime

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestParseDurationAccepts(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
	}{
		{"0", 0},
		{"+0", 0},
		{"0s", 0},
		{"0d", 0},
		{"0.0h", 0},
		{"000s", 0},
		{"1ns", 1},
		{"1us", time.Microsecond},
		{"1\u00b5s", time.Microsecond},
		{"1\u03bcs", time.Microsecond},
		{"1ms", time.Millisecond},
		{"1s", time.Second},
		{"1m", time.Minute},
		{"1h", time.Hour},
		{"1d", 24 * time.Hour},
		{"1w", 7 * 24 * time.Hour},
		{"+5m", 5 * time.Minute},
		{"90s", 90 * time.Second},
		{"600s", 10 * time.Minute},
		{"1w2d3h", 9*24*time.Hour + 3*time.Hour},
		{"2d4h30m", 52*time.Hour + 30*time.Minute},
		{"1.5d", 36 * time.Hour},
		{"1.5h", 90 * time.Minute},
		{".5h", 30 * time.Minute},
		{"5.h", 5 * time.Hour},
		{"1h1h", 2 * time.Hour},     // repeated units add up
		{"30m1h", 90 * time.Minute}, // any order
		{"1.000000001s", time.Second + 1},
		{"0.9999999999s", time.Second - 1}, // truncated, not rounded
		{"0.5ns", 0},
		{"1.0000000000000000000000000001w", 7 * 24 * time.Hour}, // long fractions are exact
		{"0.1w", 7 * 24 * time.Hour / 10},
		// A third of a day is exactly 8h; a third written with finitely many
		// digits is just below it, so it truncates to 8h - 1ns.
		{"0.3333333333333333333333333333333d", 8*time.Hour - 1},
		{"2562047h47m16.854775807s", math.MaxInt64},
		{"15250w1d23h47m16s854ms775us807ns", math.MaxInt64},
		{"9223372036854775807ns", math.MaxInt64},
		{"9223372036.854775807s", math.MaxInt64}, // one component: whole part plus fraction at the limit
		{"00000000000000000000000001s", time.Second},
	}
	for _, tt := range tests {
		got, err := ParseDuration(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v, nil", tt.in, got, err, tt.want)
		}
	}
}

func TestParseDurationRejects(t *testing.T) {
	tests := []struct {
		in      string
		wantMsg string // substring of the error after the common prefix
	}{
		{"", "empty string"},
		{"5", "a number needs a unit"},
		{"00", "a number needs a unit"},
		{"1.5", "a number needs a unit"},
		{"1h2", `missing unit after "2"`},
		{"1h2.5", `missing unit after "2.5"`},
		{"1h-30m", `sign '-' inside the duration (at "-30m")`},
		{"1h+30m", `sign '+' inside the duration`},
		{"++1h", `sign '+' inside the duration`},
		{"+-1h", `sign '-' inside the duration`},
		{"-5m", "negative durations are not allowed"},
		{"-0", "negative durations are not allowed"},
		{"-0s", "negative durations are not allowed"},
		{"+", "missing number"},
		{"5x", `unknown unit "x"`},
		{"5 m", `unknown unit " m"`},
		{" 5m", `expected a number at " 5m"`},
		{"5m ", `unknown unit "m "`},
		{"1H", `unknown unit "H"`},
		{"1y", `unknown unit "y"`},
		{"1mo", `unknown unit "mo"`},
		{"h", `expected a number at "h"`},
		{".h", `invalid number "."`},
		{"1..5h", `missing unit after "1."`},
		{"1.2.3h", `missing unit after "1.2"`},
		{"9223372036854775808ns", "larger than the maximum duration 15250w1d23h47m16s854ms775us807ns"},
		{"2562047h47m16.854775808s", "larger than the maximum"},
		{"15251w", "larger than the maximum"},
		{"15250w2d", "larger than the maximum"},
		{"99999999999999999999999s", "larger than the maximum"},
		{"9223372036854775807ns1ns", "larger than the maximum"},
		{"9223372036.854775808s", "larger than the maximum"}, // whole part fits, the fraction tips it over
	}
	for _, tt := range tests {
		got, err := ParseDuration(tt.in)
		if err == nil {
			t.Errorf("ParseDuration(%q) = %v, nil; want an error", tt.in, got)
			continue
		}
		if got != 0 {
			t.Errorf("ParseDuration(%q) returned %v with its error; want 0", tt.in, got)
		}
		prefix := "runtime: invalid duration " + strconv.Quote(tt.in) + ": "
		if msg := err.Error(); !strings.HasPrefix(msg, prefix) || !strings.Contains(msg, tt.wantMsg) {
			t.Errorf("ParseDuration(%q) error = %q; want prefix %q and %q", tt.in, msg, prefix, tt.wantMsg)
		}
	}
}

// TestParseDurationMatchesStdlib checks the compatibility promise on a
// table of forms the standard library accepts.
func TestParseDurationMatchesStdlib(t *testing.T) {
	for _, s := range []string{
		"0", "+0", "1ns", "1.5us", "2\u00b5s", "3ms", "4.25s", "5m", "6h",
		"1h30m", "1h30m15.5s", "300ms", "1.000001ms", ".5s", "7.s",
		"2562047h47m16.854775807s", "12h34m56.789s", "0.000000001s",
	} {
		want, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("time.ParseDuration(%q): %v", s, err)
		}
		got, err := ParseDuration(s)
		if err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v; time.ParseDuration says %v", s, got, err, want)
		}
	}
}

func TestFormatDuration(t *testing.T) {
	tests := []struct {
		in   time.Duration
		want string
	}{
		{0, "0s"},
		{1, "1ns"},
		{time.Microsecond, "1us"},
		{1500 * time.Microsecond, "1ms500us"},
		{time.Second, "1s"},
		{1500 * time.Millisecond, "1s500ms"},
		{time.Second + 1, "1s1ns"},
		{90 * time.Second, "1m30s"},
		{10 * time.Minute, "10m"},
		{time.Hour, "1h"},
		{24 * time.Hour, "1d"},
		{52 * time.Hour, "2d4h"},
		{52*time.Hour + 30*time.Minute, "2d4h30m"},
		{36 * time.Hour, "1d12h"},
		{7 * 24 * time.Hour, "1w"},
		{9*24*time.Hour + 3*time.Hour, "1w2d3h"},
		{time.Hour + time.Second, "1h1s"},
		{math.MaxInt64, "15250w1d23h47m16s854ms775us807ns"},
		{-90 * time.Second, "-1m30s"},
		{math.MinInt64, "-15250w1d23h47m16s854ms775us808ns"},
	}
	for _, tt := range tests {
		if got := FormatDuration(tt.in); got != tt.want {
			t.Errorf("FormatDuration(%d) = %q; want %q", int64(tt.in), got, tt.want)
		}
	}
}

// TestFormatDurationRoundTrip walks durations around every unit boundary.
func TestFormatDurationRoundTrip(t *testing.T) {
	var ds []time.Duration
	for _, u := range formatUnits {
		for k := int64(0); k < 3; k++ {
			base := time.Duration(u.size) * time.Duration(k)
			ds = append(ds, base, base+1, base-1)
		}
	}
	ds = append(ds, math.MaxInt64, math.MaxInt64-1, math.MaxInt64/2)
	for _, d := range ds {
		if d < 0 {
			continue
		}
		s := FormatDuration(d)
		got, err := ParseDuration(s)
		if err != nil || got != d {
			t.Errorf("ParseDuration(FormatDuration(%d) = %q) = %v, %v", int64(d), s, got, err)
		}
	}
}

func TestParseDurationDoesNotAllocate(t *testing.T) {
	allocs := testing.AllocsPerRun(100, func() {
		_, _ = ParseDuration("1w2d3h4m5.5s")
		_, _ = ParseDuration("0")
	})
	if allocs != 0 {
		t.Errorf("ParseDuration allocates %v times on success", allocs)
	}
}
