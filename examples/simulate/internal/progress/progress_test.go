package progress

import (
	"strings"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/clock"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func TestETA(t *testing.T) {
	for _, tc := range []struct {
		elapsed time.Duration
		frac    float64
		want    time.Duration
		ok      bool
	}{
		{10 * time.Second, 0.25, 30 * time.Second, true},
		{10 * time.Second, 0.5, 10 * time.Second, true},
		{10 * time.Second, 1, 0, true},
		{10 * time.Second, 1.5, 0, true},
		{10 * time.Second, 0, 0, false},
		{10 * time.Second, -1, 0, false},
	} {
		got, ok := ETA(tc.elapsed, tc.frac)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ETA(%v, %v) = %v %v, want %v %v", tc.elapsed, tc.frac, got, ok, tc.want, tc.ok)
		}
	}
}

func TestAlwaysOnAFakeClock(t *testing.T) {
	now := t0
	clk := clock.Func(func() time.Time { return now })
	var b strings.Builder // not a terminal
	m := New(&b, Always, clk)
	now = now.Add(Delay - time.Nanosecond)
	m.Update("sweep 1/4", 1, 100)
	if b.Len() != 0 {
		t.Fatalf("wrote before Delay: %q", b.String())
	}
	now = now.Add(10*time.Second + time.Nanosecond) // 12 s elapsed
	m.Update("sweep 2/4", 25, 100)
	if want := "simulate: sweep 2/4  25%  36s left (12s so far)\n"; b.String() != want {
		t.Fatalf("got %q, want %q", b.String(), want)
	}
	now = now.Add(LogEvery - time.Nanosecond)
	m.Update("sweep 2/4", 30, 100)
	if strings.Count(b.String(), "\n") != 1 {
		t.Fatalf("wrote again within LogEvery: %q", b.String())
	}
	now = now.Add(time.Nanosecond) // 22 s elapsed, half done: 22 s left
	m.Update("sweep 3/4", 50, 100)
	if !strings.HasSuffix(b.String(), "simulate: sweep 3/4  50%  22s left (22s so far)\n") {
		t.Fatalf("second line: %q", b.String())
	}
	m.Finish()
	if strings.Contains(b.String(), "\r") {
		t.Errorf("a log got terminal control codes: %q", b.String())
	}
}

func TestAutoAndNeverStayQuietOffATerminal(t *testing.T) {
	for _, mode := range []Mode{Auto, Never} {
		now := t0
		clk := clock.Func(func() time.Time { return now })
		var b strings.Builder
		m := New(&b, mode, clk)
		now = now.Add(time.Hour)
		m.Update("x", 1, 2)
		m.Finish()
		if b.Len() != 0 || m.Enabled() {
			t.Errorf("mode %v wrote %q", mode, b.String())
		}
	}
}

func TestNoEstimateAtZero(t *testing.T) {
	now := t0
	clk := clock.Func(func() time.Time { return now })
	var b strings.Builder
	m := New(&b, Always, clk)
	now = now.Add(5 * time.Second)
	m.Update("x", 0, 10)
	if !strings.Contains(b.String(), "0%  ? left") {
		t.Errorf("got %q, want an unknown estimate", b.String())
	}
	m.Update("x", 1, 0) // no total: ignored
}

func TestParseMode(t *testing.T) {
	for in, want := range map[string]Mode{"": Auto, "auto": Auto, "always": Always, "on": Always, "true": Always, "never": Never, "off": Never, "false": Never} {
		if got, err := ParseMode(in); err != nil || got != want {
			t.Errorf("ParseMode(%q) = %v %v, want %v", in, got, err, want)
		}
		if in != "" && in != "on" && in != "off" && in != "true" && in != "false" {
			if w, _ := ParseMode(in); w.String() != in {
				t.Errorf("Mode(%q).String() = %q", in, w.String())
			}
		}
	}
	if _, err := ParseMode("sometimes"); err == nil || !strings.HasPrefix(err.Error(), "progress: ") {
		t.Errorf("ParseMode(sometimes) = %v, want a progress error", err)
	}
}
