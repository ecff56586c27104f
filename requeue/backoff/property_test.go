package backoff_test

import (
	"math"
	"math/big"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/requeue/backoff"
)

// backoffGenConfig draws a config with explicit fields: Base in
// [1ns, MaxInt64], Max in [Base, MaxInt64], Jitter in [0, 1); now and then
// with an explicit zero (NoDelay, Uncapped, NoJitter) instead, and now and
// then ClampToMax. (Uncapped with a Base above UncappedMax is not
// valid; the methods then give the cap, which the reference does too.)
func backoffGenConfig(t *rapid.T) backoff.Config {
	c := backoffGenExplicit(t)
	if rapid.IntRange(0, 4).Draw(t, "noDelay") == 0 {
		c.Base, c.NoDelay = 0, true
	}
	if rapid.IntRange(0, 4).Draw(t, "uncapped") == 0 {
		c.Max, c.Uncapped = 0, true
	}
	if rapid.IntRange(0, 4).Draw(t, "noJitter") == 0 {
		c.Jitter, c.NoJitter = 0, true
	}
	c.ClampToMax = rapid.IntRange(0, 3).Draw(t, "clamp") == 0
	return c
}

func backoffGenExplicit(t *rapid.T) backoff.Config {
	base := rapid.OneOf(
		rapid.Int64Range(1, 1000),
		rapid.Int64Range(1, int64(time.Hour)),
		rapid.Int64Range(1, math.MaxInt64),
	).Draw(t, "base")
	max := rapid.OneOf(
		rapid.Int64Range(base, base+min(1000, math.MaxInt64-base)),
		rapid.Int64Range(base, math.MaxInt64),
		rapid.Just(int64(math.MaxInt64)),
	).Draw(t, "max")
	jitter := rapid.OneOf(
		rapid.Float64Range(0, 0.999999),
		rapid.Just(math.Nextafter(1, 0)),
	).Draw(t, "jitter")
	return backoff.Config{Base: time.Duration(base), Max: time.Duration(max), Jitter: jitter}
}

func backoffGenN(t *rapid.T, label string) int {
	return rapid.OneOf(
		rapid.IntRange(-3, 80),
		rapid.IntRange(math.MaxInt-3, math.MaxInt),
		rapid.IntRange(math.MinInt, math.MaxInt),
	).Draw(t, label)
}

// backoffEffective is the reference reading of c's fields: an unset field
// (zero, or invalid: negative, or a jitter outside [0, 1) or NaN) is its
// default, unless its flag is set, which makes it 0.
func backoffEffective(c backoff.Config) backoff.Config {
	switch {
	case c.NoDelay:
		c.Base = 0
	case c.Base <= 0:
		c.Base = backoff.DefaultBase
	}
	switch {
	case c.Uncapped:
		c.Max = 0
	case c.Max <= 0:
		c.Max = backoff.DefaultMax
	}
	switch {
	case c.NoJitter:
		c.Jitter = 0
	case !(c.Jitter > 0 && c.Jitter < 1):
		c.Jitter = backoff.DefaultJitter
	}
	return c
}

// backoffBigDelay is the reference: min(base·2^(n-1), max) in big-integer
// arithmetic, 0 for n <= 0; no delay is 0, and no cap is a cap at 2^62 ns
// (Kueue's stand-in for a zero cap).
func backoffBigDelay(c backoff.Config, n int) *big.Int {
	if n <= 0 || c.NoDelay {
		return new(big.Int)
	}
	e := backoffEffective(c)
	max := big.NewInt(int64(e.Max))
	if c.Uncapped {
		max = new(big.Int).Lsh(big.NewInt(1), 62)
	}
	if n > 70 { // 2^69 > 2^63 > max whatever the base
		return max
	}
	d := new(big.Int).Lsh(big.NewInt(int64(e.Base)), uint(n-1))
	if d.Cmp(max) > 0 {
		return max
	}
	return d
}

func TestBackoffDelayProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := backoffGenConfig(t)
		n1, n2 := backoffGenN(t, "n1"), backoffGenN(t, "n2")
		if n1 > n2 {
			n1, n2 = n2, n1
		}
		u := rapid.Float64Range(0, 1).Draw(t, "u")
		jf := backoffEffective(c).Jitter // a zero Jitter means the default

		for _, n := range []int{n1, n2} {
			d := c.Delay(n, 0)
			if d < 0 {
				t.Fatalf("Delay(%d) = %v < 0", n, d)
			}
			if want := backoffBigDelay(c, n); want.Cmp(big.NewInt(int64(d))) != 0 {
				t.Fatalf("Delay(%d) = %d, big-integer reference %s", n, d, want)
			}
			dj := c.Delay(n, u)
			j := dj - d
			if dj < d || j < 0 {
				t.Fatalf("Delay(%d, %v) = %v < Delay = %v", n, u, dj, d)
			}
			// The jitter is Jitter·delay·u up to float rounding (Kueue's
			// arithmetic): below Jitter·delay·(1+2^-51) in exact
			// arithmetic, and never above the jitter of the largest draw
			// computed the same way. So the total stays within
			// Max·(1+Jitter), up to that rounding, and saturates instead
			// of overflowing.
			if d > 0 && jf > 0 {
				bound := new(big.Float).SetPrec(256).SetInt64(int64(d))
				bound.Mul(bound, new(big.Float).SetPrec(256).SetFloat64(jf))
				bound.Mul(bound, new(big.Float).SetPrec(256).SetFloat64(1+math.Ldexp(1, -51)))
				if new(big.Float).SetInt64(int64(j)).Cmp(bound) >= 0 {
					t.Fatalf("jitter %d not below %v·%d·(1+2^-51)", j, jf, d)
				}
				if full := c.Delay(n, math.Nextafter(1, 0)) - d; j > full {
					t.Fatalf("jitter %d for u=%v above the largest draw's %d", j, u, full)
				}
			}
			if max := backoffBigDelay(c, math.MaxInt).Int64(); int64(d) > max || float64(j) > float64(max)*jf {
				t.Fatalf("Delay(%d) = %v exceeds Max·(1+Jitter) for Max %v", n, dj, max)
			}
			if c.NoJitter && j != 0 {
				t.Fatalf("NoJitter: Delay(%d, %v) = %v, Delay %v", n, u, dj, d)
			}
			// ClampToMax clamps the jittered delay at the cap, and only that.
			free := c
			free.ClampToMax = false
			if max := backoffBigDelay(c, math.MaxInt).Int64(); c.ClampToMax {
				if want := min(int64(free.Delay(n, u)), max); int64(dj) != want {
					t.Fatalf("ClampToMax: Delay(%d, %v) = %v, want min(%v, %v)", n, u, dj, free.Delay(n, u), max)
				}
			} else if dj != free.Delay(n, u) {
				t.Fatalf("Delay differs with ClampToMax off")
			}
		}
		if c.Delay(n1, 0) > c.Delay(n2, 0) {
			t.Fatalf("Delay(%d) = %v > Delay(%d) = %v", n1, c.Delay(n1, 0), n2, c.Delay(n2, 0))
		}
		if c.Delay(n1, u) > c.Delay(n2, u) {
			t.Fatalf("Delay not monotone in n for u=%v", u)
		}
	})
}

// backoffNaiveDelay recomputes the jittered delay the slow, obvious way.
func backoffNaiveDelay(c backoff.Config, n int, u float64) time.Duration {
	d := backoffBigDelay(c, n).Int64()
	if u >= 1 { // the documented clamp into [0, 1)
		u = math.Nextafter(1, 0)
	}
	j := int64(u * backoffEffective(c).Jitter * float64(d))
	if j > math.MaxInt64-d {
		return math.MaxInt64
	}
	return time.Duration(d + j)
}

// TestRequeueStateMachine drives State through random timeouts,
// deactivations and clock moves (forwards and, for skew, backwards) and
// checks it against a naive model: requeueAt never moves earlier except when
// a deactivation resets it, the count never passes the limit, deactivation
// happens exactly when the count has reached the limit, and admissibility is
// now >= requeueAt.
func TestRequeueStateMachine(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := backoff.Config{
			Base:   time.Duration(rapid.Int64Range(1, int64(time.Hour)).Draw(t, "base")),
			Jitter: rapid.Float64Range(0, 0.5).Draw(t, "jitter"),
		}
		c.Max = c.Base * time.Duration(rapid.Int64Range(1, 100).Draw(t, "maxFactor"))
		if rapid.Bool().Draw(t, "limited") {
			c.Limit = backoff.Limit(rapid.IntRange(0, 6).Draw(t, "limit"))
		}

		now := backoffT0
		var s backoff.State
		var modelCount int
		var modelAt time.Time
		t.Repeat(map[string]func(*rapid.T){
			"advance": func(t *rapid.T) {
				now = now.Add(time.Duration(rapid.Int64Range(-int64(time.Hour), 6*int64(time.Hour)).Draw(t, "step")))
			},
			"timeout": func(t *rapid.T) {
				u := rapid.Float64Range(0, 1).Draw(t, "u")
				next, deact := s.Timeout(c, now, u)
				if c.Limit != nil && modelCount >= *c.Limit {
					if !deact || next != (backoff.State{}) {
						t.Fatalf("count %d at limit %d: got (%+v, %v), want reset and deactivated", modelCount, *c.Limit, next, deact)
					}
					modelCount, modelAt = 0, time.Time{}
					s = next
					return
				}
				if deact {
					t.Fatalf("deactivated at count %d, limit %v", modelCount, c.Limit)
				}
				modelCount++
				at := now.Add(backoffNaiveDelay(c, modelCount, u))
				if at.Before(modelAt) {
					at = modelAt
				}
				if next.RequeueAt.Before(s.RequeueAt) {
					t.Fatalf("RequeueAt moved earlier: %v -> %v", s.RequeueAt, next.RequeueAt)
				}
				modelAt = at
				s = next
			},
			"deactivate": func(t *rapid.T) {
				s = backoff.State{} // every deactivation resets the state
				modelCount, modelAt = 0, time.Time{}
			},
			"": func(t *rapid.T) {
				if s.Count != modelCount || !s.RequeueAt.Equal(modelAt) {
					t.Fatalf("state %+v, model {Count:%d RequeueAt:%v}", s, modelCount, modelAt)
				}
				if c.Limit != nil && s.Count > *c.Limit {
					t.Fatalf("Count %d passed the limit %d", s.Count, *c.Limit)
				}
			},
		})
	})
}
