package backoff_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/requeue/backoff"
)

// backoffT0 is the fixed origin of the backoff tests.
var backoffT0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func TestBackoffDelay(t *testing.T) {
	tests := []struct {
		name string
		cfg  backoff.Config
		n    int
		want time.Duration
	}{
		{"n=0 is no delay", backoff.Config{}, 0, 0},
		{"negative n is no delay", backoff.Config{}, -5, 0},
		{"min int is no delay", backoff.Config{}, math.MinInt, 0},
		{"default first", backoff.Config{}, 1, 60 * time.Second},
		{"default second", backoff.Config{}, 2, 120 * time.Second},
		{"default third", backoff.Config{}, 3, 240 * time.Second},
		{"default sixth, last below cap", backoff.Config{}, 6, 1920 * time.Second},
		{"default seventh capped (3840s > 1h)", backoff.Config{}, 7, time.Hour},
		{"default n=29 (Kueue overflowed here before its cap)", backoff.Config{}, 29, time.Hour},
		{"default n=MaxInt32", backoff.Config{}, math.MaxInt32, time.Hour},
		{"default n=MaxInt", backoff.Config{}, math.MaxInt, time.Hour},
		{"exactly at the cap is the cap", backoff.Config{Base: time.Second, Max: 4 * time.Second}, 3, 4 * time.Second},
		{"one below the cap", backoff.Config{Base: time.Second, Max: 5 * time.Second}, 3, 4 * time.Second},
		{"first over the cap", backoff.Config{Base: time.Second, Max: 5 * time.Second}, 4, 5 * time.Second},
		{"base equals max", backoff.Config{Base: time.Minute, Max: time.Minute}, 1, time.Minute},
		{"tiny base, huge max, largest uncapped", backoff.Config{Base: 1, Max: math.MaxInt64}, 63, 1 << 62},
		{"tiny base, huge max, n=64 saturates", backoff.Config{Base: 1, Max: math.MaxInt64}, 64, math.MaxInt64},
		{"tiny base, huge max, n=1e9", backoff.Config{Base: 1, Max: math.MaxInt64}, 1_000_000_000, math.MaxInt64},
		{"huge base", backoff.Config{Base: math.MaxInt64, Max: math.MaxInt64}, 2, math.MaxInt64},
		{"invalid base > max gives max", backoff.Config{Base: 2 * time.Hour}, 1, time.Hour},
		{"negative fields act as defaults", backoff.Config{Base: -1, Max: -1}, 2, 120 * time.Second},
		{"only max set", backoff.Config{Max: 10 * time.Hour}, 10, 30720 * time.Second},
		{"no delay", backoff.Config{NoDelay: true}, 1, 0},
		{"no delay, n=MaxInt", backoff.Config{NoDelay: true, Uncapped: true}, math.MaxInt, 0},
		{"no delay wins over a base (invalid)", backoff.Config{NoDelay: true, Base: time.Minute}, 3, 0},
		{"uncapped passes the default 1h", backoff.Config{Uncapped: true}, 8, 128 * time.Minute},
		{"uncapped wins over a max (invalid)", backoff.Config{Uncapped: true, Max: time.Minute}, 8, 128 * time.Minute},
		{"uncapped stops at Kueue's stand-in cap", backoff.Config{Uncapped: true}, 40, backoff.UncappedMax},
		{"uncapped, last doubling below 2^62", backoff.Config{Uncapped: true}, 27, 60 * time.Second << 26},
		{"uncapped, first at 2^62 (Kueue: MaxInt64/2)", backoff.Config{Uncapped: true}, 28, 1 << 62},
		{"uncapped, invalid base above 2^62 gives the cap", backoff.Config{Base: 1<<62 + 1, Uncapped: true}, 1, 1 << 62},
		{"clamp changes no jitter-free delay", backoff.Config{ClampToMax: true}, 9, time.Hour},
		{"clamp, base above max gives max", backoff.Config{Base: 2 * time.Hour, ClampToMax: true}, 1, time.Hour},
		{"uncapped, tiny base, largest exact", backoff.Config{Base: 1, Uncapped: true}, 63, 1 << 62},
		{"uncapped base above the default max", backoff.Config{Base: 2 * time.Hour, Uncapped: true}, 1, 2 * time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.cfg.Delay(tt.n, 0); got != tt.want {
				t.Errorf("Delay(%d) = %v, want %v", tt.n, got, tt.want)
			}
		})
	}
}

func TestBackoffDelayJitter(t *testing.T) {
	huge := backoff.Config{Base: math.MaxInt64, Max: math.MaxInt64, Jitter: 0.5}
	tests := []struct {
		name string
		cfg  backoff.Config
		n    int
		u    float64
		want time.Duration
	}{
		{"u=0 adds nothing", backoff.Config{}, 1, 0, 60 * time.Second},
		{"default jitter, half draw", backoff.Config{}, 1, 0.5, 60*time.Second + 3*time.Millisecond},
		{"default jitter on the cap", backoff.Config{}, 9, 0.5, time.Hour + 180*time.Millisecond},
		{"explicit jitter", backoff.Config{Jitter: 0.5}, 2, 0.5, 150 * time.Second},
		{"n=0 stays zero", backoff.Config{Jitter: 0.5}, 0, 0.9, 0},
		{"negative u clamps to 0", backoff.Config{Jitter: 0.5}, 1, -3, 60 * time.Second},
		{"NaN u counts as 0", backoff.Config{Jitter: 0.5}, 1, math.NaN(), 60 * time.Second},
		{"u=1 clamps below 1", backoff.Config{Jitter: 0.5}, 1, 1, 90*time.Second - 1},
		{"u=+Inf clamps below 1", backoff.Config{Jitter: 0.5}, 1, math.Inf(1), 90*time.Second - 1},
		{"saturates at the largest duration", huge, 1, 0.5, math.MaxInt64},
		{"invalid jitter uses the default", backoff.Config{Jitter: 7}, 1, 0.5, 60*time.Second + 3*time.Millisecond},
		{"no jitter adds nothing", backoff.Config{NoJitter: true}, 1, 0.999, 60 * time.Second},
		{"no jitter, uncapped, at the stand-in cap", backoff.Config{NoJitter: true, Uncapped: true}, 80, 0.999, backoff.UncappedMax},
		{"uncapped jitter on the stand-in cap", backoff.Config{Uncapped: true}, 80, 0.5, 1<<62 + 230584300921369},
		{"clamp: the cap, jitter dropped", backoff.Config{ClampToMax: true}, 9, 0.5, time.Hour},
		{"clamp: below the cap, jitter kept", backoff.Config{ClampToMax: true}, 1, 0.5, 60*time.Second + 3*time.Millisecond},
		{"clamp: jitter that would pass the cap stops there",
			backoff.Config{Base: 1000 * time.Second, Max: 1000*time.Second + 50*time.Millisecond, ClampToMax: true}, 1, 0.999, 1000*time.Second + 50*time.Millisecond},
		{"clamp: base above max gives max", backoff.Config{Base: 2 * time.Hour, ClampToMax: true}, 1, 0.9, time.Hour},
		{"clamp: uncapped clamps at the stand-in cap", backoff.Config{Uncapped: true, ClampToMax: true}, 80, 0.5, backoff.UncappedMax},
		{"no delay has no jitter", backoff.Config{NoDelay: true, Jitter: 0.5}, 3, 0.9, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.cfg.Delay(tt.n, tt.u); got != tt.want {
				t.Errorf("DelayJitter(%d, %v) = %v, want %v", tt.n, tt.u, got, tt.want)
			}
		})
	}
}

func TestBackoffDelayAllocs(t *testing.T) {
	cfg := backoff.Config{Limit: backoff.Limit(3)}
	var sink time.Duration
	allocs := testing.AllocsPerRun(100, func() {
		sink += cfg.Delay(7, 0) + cfg.Delay(40, 0.3)
	})
	if allocs != 0 {
		t.Errorf("Delay allocates %v times per run, want 0", allocs)
	}
	_ = sink
}

// sumDelays is Delay(1, 0)+…+Delay(n, 0), saturating at the largest
// Duration: the time a job that times out n times waits for its requeues.
func sumDelays(c backoff.Config, n int) time.Duration {
	var total time.Duration
	for k := 1; k <= n; k++ {
		d := c.Delay(k, 0)
		if d > math.MaxInt64-total {
			return math.MaxInt64
		}
		total += d
	}
	return total
}

// TestBackoffDelaySums: the sums the package doc and KEP-1282 state, and
// Delay at the ends of the Duration range.
func TestBackoffDelaySums(t *testing.T) {
	noCap := backoff.Config{Max: 1000 * time.Hour}
	tests := []struct {
		name string
		cfg  backoff.Config
		n    int
		want time.Duration
	}{
		{"none", backoff.Config{}, 0, 0},
		{"negative", backoff.Config{}, -1, 0},
		{"one", backoff.Config{}, 1, 60 * time.Second},
		// KEP-1282's worked example: base 60s, 10 requeues, jitter
		// neglected. The KEP says "8h 32min"; the sum is 61,380s.
		{"KEP-1282 example, uncapped", noCap, 10, 61380 * time.Second},
		{"KEP-1282 example is 17h3m", noCap, 10, 17*time.Hour + 3*time.Minute},
		// The same with the default 1h cap: 3,780s + 4·3,600s.
		{"defaults, 10 requeues", backoff.Config{}, 10, 18180 * time.Second},
		{"defaults, 6 requeues (all below cap)", backoff.Config{}, 6, 3780 * time.Second},
		{"defaults, 7 requeues (first capped)", backoff.Config{}, 7, 3780*time.Second + time.Hour},
		{"all 63 uncapped terms sum to MaxInt64", backoff.Config{Base: 1, Max: math.MaxInt64}, 63, math.MaxInt64},
		{"saturates one term later", backoff.Config{Base: 1, Max: math.MaxInt64}, 64, math.MaxInt64},
		{"saturates adding capped terms", backoff.Config{Base: 1 << 61, Max: math.MaxInt64}, 3, math.MaxInt64},
		{"largest exact sum of uncapped terms", backoff.Config{Base: 3, Max: math.MaxInt64}, 61, 3 * (1<<61 - 1)},
		{"saturates within uncapped terms", backoff.Config{Base: 3, Max: math.MaxInt64}, 62, math.MaxInt64},
		{"defaults, a million requeues", backoff.Config{}, 1_000_000, 3780*time.Second + (1_000_000-6)*time.Hour},
		{"no delay sums to zero", backoff.Config{NoDelay: true}, 1000, 0},
		{"uncapped, 10 requeues", backoff.Config{Uncapped: true}, 10, 61380 * time.Second},
		{"uncapped saturates", backoff.Config{Uncapped: true}, 40, math.MaxInt64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sumDelays(tt.cfg, tt.n); got != tt.want {
				t.Errorf("the first %d delays sum to %v, want %v", tt.n, got, tt.want)
			}
		})
	}
}

// TestBackoffDefaults: an unset or invalid field delays as its default
// does, and a flag wins over its field.
func TestBackoffDefaults(t *testing.T) {
	limit := backoff.Limit(4)
	tests := []struct {
		name string
		cfg  backoff.Config
		want backoff.Config
	}{
		{"zero is the defaults", backoff.Config{}, backoff.Config{Base: time.Minute, Max: time.Hour, Jitter: 0.0001}},
		{"set fields kept", backoff.Config{Base: time.Second, Max: time.Minute, Jitter: 0.2, Limit: limit},
			backoff.Config{Base: time.Second, Max: time.Minute, Jitter: 0.2, Limit: limit}},
		{"invalid fields become defaults", backoff.Config{Base: -1, Max: -2, Jitter: math.NaN()},
			backoff.Config{Base: time.Minute, Max: time.Hour, Jitter: 0.0001}},
		{"flags keep their zeros", backoff.Config{NoDelay: true, Uncapped: true, NoJitter: true, Limit: limit},
			backoff.Config{NoDelay: true, Uncapped: true, NoJitter: true, Limit: limit}},
		{"a flag wins over its field", backoff.Config{Base: time.Second, Max: time.Minute, Jitter: 0.2, NoDelay: true, Uncapped: true, NoJitter: true},
			backoff.Config{NoDelay: true, Uncapped: true, NoJitter: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, n := range []int{0, 1, 2, 7, 40, math.MaxInt} {
				for _, u := range []float64{0, 0.3, 0.999} {
					if got, want := tt.cfg.Delay(n, u), tt.want.Delay(n, u); got != want {
						t.Errorf("Delay(%d, %v) = %v, want %v, as %+v", n, u, got, want, tt.want)
					}
				}
			}
		})
	}
}

func TestBackoffValidate(t *testing.T) {
	tests := []struct {
		name string
		cfg  backoff.Config
		want []string // substrings, one per joined error, in order
	}{
		{"zero value is valid", backoff.Config{}, nil},
		{"explicit defaults", backoff.Config{Base: time.Minute, Max: time.Hour, Jitter: 0.0001}, nil},
		{"base equals max", backoff.Config{Base: time.Hour, Max: time.Hour}, nil},
		{"limit zero is valid", backoff.Config{Limit: backoff.Limit(0)}, nil},
		{"jitter just below one", backoff.Config{Jitter: math.Nextafter(1, 0)}, nil},
		{"negative base", backoff.Config{Base: -time.Second}, []string{"backoff: base must not be negative, got -1s"}},
		{"negative max", backoff.Config{Max: -time.Second}, []string{"backoff: backoff max must not be negative, got -1s"}},
		{"negative limit", backoff.Config{Limit: backoff.Limit(-1)}, []string{"backoff: backoff limit must not be negative, got -1"}},
		{"negative jitter", backoff.Config{Jitter: -0.1}, []string{"backoff: backoff jitter must be in [0, 1), got -0.1"}},
		{"jitter one", backoff.Config{Jitter: 1}, []string{"backoff: backoff jitter must be in [0, 1), got 1"}},
		{"jitter NaN", backoff.Config{Jitter: math.NaN()}, []string{"backoff: backoff jitter must be in [0, 1), got NaN"}},
		{"base above max", backoff.Config{Base: 2 * time.Minute, Max: time.Minute}, []string{"backoff: base 2m0s exceeds max 1m0s"}},
		{"base above the default max", backoff.Config{Base: 2 * time.Hour}, []string{"backoff: base 2h0m0s exceeds max 1h0m0s"}},
		{"max below the default base", backoff.Config{Max: 30 * time.Second}, []string{"backoff: base 1m0s exceeds max 30s"}},
		{"explicit zeros are valid", backoff.Config{NoDelay: true, Uncapped: true, NoJitter: true}, nil},
		{"uncapped base above the default max", backoff.Config{Base: 2 * time.Hour, Uncapped: true}, nil},
		{"uncapped base at the stand-in cap", backoff.Config{Base: backoff.UncappedMax, Uncapped: true}, nil},
		{"uncapped base above the stand-in cap", backoff.Config{Base: backoff.UncappedMax + 1, Uncapped: true},
			[]string{"backoff: base 1281023h53m38.427387905s exceeds max 1281023h53m38.427387904s"}},
		{"clamp: base above max is valid", backoff.Config{Base: 2 * time.Minute, Max: time.Minute, ClampToMax: true}, nil},
		{"clamp: other problems still reported", backoff.Config{Base: -1, ClampToMax: true},
			[]string{"backoff: base must not be negative"}},
		{"no delay with a small max", backoff.Config{NoDelay: true, Max: time.Second}, nil},
		{"flags beside values", backoff.Config{Base: time.Second, NoDelay: true, Max: time.Hour, Uncapped: true, Jitter: 0.1, NoJitter: true}, []string{
			"backoff: backoff NoDelay is set but Base is 1s (want 0)",
			"backoff: backoff Uncapped is set but Max is 1h0m0s (want 0)",
			"backoff: backoff NoJitter is set but Jitter is 0.1 (want 0)",
		}},
		{"all at once", backoff.Config{Base: -1, Max: -1, Limit: backoff.Limit(-3), Jitter: 2}, []string{
			"backoff: base must not be negative",
			"backoff: backoff max must not be negative",
			"backoff: backoff limit must not be negative",
			"backoff: backoff jitter must be in [0, 1)",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			backoffCheckErrors(t, tt.cfg.Validate(), tt.want)
		})
	}
}

// backoffCheckErrors checks that err joins exactly len(want) errors, the i-th
// containing want[i], each starting with "backoff: ".
func backoffCheckErrors(t *testing.T, err error, want []string) {
	t.Helper()
	if len(want) == 0 {
		if err != nil {
			t.Fatalf("got error %v, want nil", err)
		}
		return
	}
	if err == nil {
		t.Fatalf("got nil error, want %q", want)
	}
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = backoffFlatten(j.Unwrap())
	} else {
		errs = []error{err}
	}
	if len(errs) != len(want) {
		t.Fatalf("got %d errors %q, want %d: %q", len(errs), err, len(want), want)
	}
	for i, e := range errs {
		if !strings.HasPrefix(e.Error(), "backoff: ") || !strings.Contains(e.Error(), want[i]) {
			t.Errorf("error %d = %q, want it to start with \"backoff: \" and contain %q", i, e, want[i])
		}
	}
}

// backoffFlatten expands nested errors.Join results.
func backoffFlatten(errs []error) []error {
	var out []error
	for _, e := range errs {
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			out = append(out, backoffFlatten(j.Unwrap())...)
			continue
		}
		out = append(out, e)
	}
	return out
}
