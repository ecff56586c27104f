package clock

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// addSaturatingExact is AddSaturating as it was before its fast path: the
// exact test (one extra time addition, Last - d) on every call. It is the
// baseline of TestAddSaturatingFastPath and BenchmarkAddSaturating; keep
// it as it is.
func addSaturatingExact(t time.Time, d time.Duration) time.Time {
	if d > 0 && t.After(last.Add(-d)) {
		return last
	}
	return t.Add(d)
}

// drawInstant draws an instant anywhere in time.Time's range, with a bias
// to the places where a sum can go wrong: the last instant, the fast
// path's threshold (farUnix), the zero time; in UTC, a fixed zone, or with
// a monotonic clock reading.
func drawInstant(t *rapid.T) time.Time {
	nsec := rapid.SampledFrom([]int64{0, 1, 999_999_999, -1}).Draw(t, "nsec")
	if nsec < 0 {
		nsec = rapid.Int64Range(0, 999_999_999).Draw(t, "anyNsec")
	}
	var at time.Time
	switch rapid.IntRange(0, 5).Draw(t, "where") {
	case 0: // anywhere
		at = time.Unix(rapid.Int64Range(math.MinInt64, math.MaxInt64-62135596800).Draw(t, "sec"), nsec)
	case 1: // within a few Durations of Last
		back := rapid.Int64Range(0, math.MaxInt64).Draw(t, "back")
		at = last.Add(-time.Duration(back) * time.Duration(rapid.IntRange(0, 3).Draw(t, "times")))
		at = at.Add(-time.Duration(rapid.Int64Range(0, 2e9).Draw(t, "jiggle")))
	case 2: // around the fast path's threshold
		at = time.Unix(farUnix+rapid.Int64Range(-3, 3).Draw(t, "fromFar"), nsec)
	case 3: // around the zero time and the Unix epoch
		at = rapid.SampledFrom([]time.Time{{}, time.Unix(0, 0)}).Draw(t, "base").
			Add(time.Duration(rapid.Int64Range(-1e12, 1e12).Draw(t, "offset")))
	case 4: // a clock reading, monotonic reading included
		at = time.Now().Add(time.Duration(rapid.Int64Range(-1e15, 1e15).Draw(t, "fromNow")))
	default: // the last nanoseconds
		at = last.Add(-time.Duration(rapid.Int64Range(0, 3e9).Draw(t, "lastNs")))
	}
	switch rapid.IntRange(0, 2).Draw(t, "loc") {
	case 1:
		at = at.UTC()
	case 2:
		at = at.In(time.FixedZone("X", -7*3600))
	}
	return at
}

// drawDuration draws any Duration, with a bias to the boundaries.
func drawDuration(t *rapid.T) time.Duration {
	if rapid.Bool().Draw(t, "boundary") {
		return rapid.SampledFrom([]time.Duration{0, 1, -1, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1,
			time.Second - 1, time.Second, time.Second + 1, -time.Second, time.Hour}).Draw(t, "d")
	}
	return time.Duration(rapid.Int64().Draw(t, "d"))
}

// TestAddSaturatingFastPath: AddSaturating returns exactly what the exact
// test returns (the same time.Time value: instant, location and monotonic
// reading), on random and boundary instants and durations; a positive
// sum never comes out before t, and is t+d unless it is Last.
func TestAddSaturatingFastPath(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		at, d := drawInstant(t), drawDuration(t)
		want := addSaturatingExact(at, d)
		if got := AddSaturating(at, d); got != want {
			t.Fatalf("AddSaturating(%v, %v) = %v, the exact test gives %v", at, d, got, want)
		}
		if got := addNearLast(at, d); got != want {
			t.Fatalf("addNearLast(%v, %v) = %v, the exact test gives %v", at, d, got, want)
		}
		if d >= 0 && want.Before(at) {
			t.Fatalf("AddSaturating(%v, %v) = %v, before t", at, d, want)
		}
		if d >= 0 && !want.Equal(last) && want.Sub(at) != d {
			t.Fatalf("AddSaturating(%v, %v) = %v, neither t+d nor Last", at, d, want)
		}
	})
}

// TestAddSaturatingBoundaries: the same comparison over every pair of
// boundary instants (around farUnix, Last, the zero time) and boundary
// durations.
func TestAddSaturatingBoundaries(t *testing.T) {
	var instants []time.Time
	for k := int64(-3); k <= 3; k++ {
		for _, ns := range []int64{0, 1, 145_224_191, 145_224_192, 145_224_193, 999_999_999} {
			instants = append(instants, time.Unix(farUnix+k, ns), time.Unix(farUnix+k, ns).In(time.FixedZone("X", 3600)))
		}
	}
	for _, back := range []time.Duration{0, 1, time.Second - 1, time.Second, time.Hour, math.MaxInt64} {
		instants = append(instants, last.Add(-back))
	}
	instants = append(instants, time.Time{}, time.Unix(0, 0), time.Now())
	ds := []time.Duration{0, 1, -1, time.Second - 1, time.Second, time.Second + 1, -time.Second, time.Hour,
		math.MaxInt64, math.MaxInt64 - 1, math.MaxInt64 - 999_999_999, math.MinInt64}
	for _, at := range instants {
		for _, d := range ds {
			if got, want := AddSaturating(at, d), addSaturatingExact(at, d); got != want {
				t.Errorf("AddSaturating(%v, %v) = %v, the exact test gives %v", at, d, got, want)
			}
		}
	}
}

// TestAddSaturatingThreshold: the last instant of the fast path plus the
// longest Duration is still before Last, so it needs no saturation; and
// the threshold is within two seconds of the first instant that does.
func TestAddSaturatingThreshold(t *testing.T) {
	below := time.Unix(farUnix-1, 999_999_999)
	if s := below.Add(math.MaxInt64); s.Before(below) || !s.Before(last) {
		t.Fatalf("%v + the longest Duration = %v: the fast path would need saturation", below, s)
	}
	if above := time.Unix(farUnix+1, 999_999_999); addSaturatingExact(above, math.MaxInt64) != last {
		t.Fatalf("%v + the longest Duration does not reach Last: the threshold is needlessly low", above)
	}
}

// BenchmarkAddSaturating runs, in the same run, the sums the min-runtime
// filter sweep makes (starts within an hour of a 2026 instant, durations up
// to 30 minutes) through time.Time.Add (the floor, no saturation), the exact
// test alone (the helper before its fast path: two additions per sum) and
// AddSaturating; and AddSaturating near Last, where it takes the exact
// test. AddSaturating should stay near the floor and well below the exact
// test.
func BenchmarkAddSaturating(b *testing.B) {
	const n = 4096
	rng := rand.New(rand.NewPCG(5, 6))
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	starts, nearLast := make([]time.Time, n), make([]time.Time, n)
	ds := make([]time.Duration, n)
	for i := range starts {
		starts[i] = t0.Add(-time.Duration(rng.Int64N(int64(time.Hour))))
		nearLast[i] = last.Add(-time.Duration(rng.Int64N(int64(time.Hour))))
		ds[i] = time.Duration(rng.IntN(30)) * time.Minute
	}
	for _, bc := range []struct {
		name string
		at   []time.Time
		add  func(time.Time, time.Duration) time.Time
	}{
		{"floor=time.Time.Add", starts, time.Time.Add},
		{"baseline=exact", starts, addSaturatingExact},
		{"AddSaturating", starts, AddSaturating},
		{"AddSaturating/nearLast", nearLast, AddSaturating},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var sink time.Time
			for i := 0; i < b.N; i++ {
				sink = bc.add(bc.at[i&(n-1)], ds[i&(n-1)])
			}
			_ = sink
		})
	}
}
