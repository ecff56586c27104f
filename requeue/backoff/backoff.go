package backoff

import (
	"errors"
	"math"
	"time"
)

// Defaults of [Config], Kueue's (KEP-1282 and its configuration API,
// apis/config/v1beta1 RequeuingStrategy): an unset field (zero, and not
// marked by its flag) takes its default.
const (
	// defaultBase is the delay of the first requeue.
	defaultBase = 60 * time.Second
	// defaultMax caps every delay.
	defaultMax = time.Hour
	// defaultJitter is the jitter fraction: a delay d grows by a random
	// amount of at most 0.0001·d.
	defaultJitter = 0.0001
	// uncappedMax is where an Uncapped backoff stops doubling: 2^62 ns,
	// about 146 years. It is Kueue's own stand-in for a zero cap
	// (pkg/util/wait NewBackoff replaces a zero cap with MaxInt64 divided by
	// the factor, 2), so that uncapped delays match Kueue's exactly.
	uncappedMax time.Duration = 1 << 62
)

// Config is the exponential backoff of a job evicted because it did not
// become ready in time. The zero Config is Kueue's default: Base 60s, Max
// 1h, Jitter 0.0001, no Limit. A zero field means its default; a zero
// meant literally is set by a flag (NoDelay, Uncapped, NoJitter), which
// requires its field to be zero. Strategy.Validate checks a Config
// (Strategy{Backoff: c}.Validate()). The methods never panic, even on a
// Config that fails it: invalid values read as unset, a flag wins over its
// field, and Base > Max gives Max.
type Config struct {
	// Base is the first delay (Kueue: backoffBaseSeconds); 0 means 60s.
	Base time.Duration
	// Max caps every delay (Kueue: backoffMaxSeconds); 0 means 1h.
	Max time.Duration
	// Limit is the number of requeues before a readiness timeout
	// deactivates the job (Kueue: backoffLimitCount); nil means no limit, 0
	// deactivates on the first timeout.
	Limit *int
	// Jitter is the fraction in [0, 1) by which a delay d grows, u·Jitter·d
	// for the caller's draw u; 0 means Kueue's fixed 0.0001.
	Jitter float64

	// NoDelay makes every delay 0 (Kueue: backoffBaseSeconds 0); Count and
	// Limit still apply.
	NoDelay bool
	// Uncapped removes the cap (Kueue: backoffMaxSeconds 0): delays double
	// up to 2^62 ns, Kueue's own stand-in for a missing cap.
	Uncapped bool
	// NoJitter makes the jitter exactly 0.
	NoJitter bool

	// ClampToMax keeps every delay, jitter included, within the cap, and
	// accepts a Base above Max (every delay is then Max): min(Step(), max), as
	// Kueue computed it before pkg/util/wait NewBackoff. A delay without
	// jitter is the same either way.
	ClampToMax bool
}

// bounds returns the effective base and cap: the cap is uncappedMax when c
// is uncapped, so the doubling stops there.
func (c *Config) bounds() (base, max time.Duration) {
	base, max = c.Base, c.Max
	switch {
	case c.NoDelay:
		base = 0
	case base <= 0:
		base = defaultBase
	}
	return base, capOf(max, c.Uncapped)
}

// capOf returns the effective cap for a Max field and the Uncapped flag.
func capOf(max time.Duration, uncapped bool) time.Duration {
	switch {
	case uncapped:
		return uncappedMax
	case max <= 0:
		return defaultMax
	}
	return max
}

// jitter returns the effective jitter fraction.
func (c *Config) jitter() float64 {
	switch {
	case c.NoJitter:
		return 0
	case c.Jitter > 0 && c.Jitter < 1:
		return c.Jitter
	}
	return defaultJitter
}

// validate reports every problem of c at once (errors.Join), each message
// starting with "backoff: ": a negative Base, Max or Limit, a Jitter outside
// [0, 1) or NaN, a flag beside a non-zero field, and, unless ClampToMax is
// set, an effective Base above the effective cap (Base 2h with Max unset is
// refused: the default Max is 1h).
func (c Config) validate() error {
	var errs []error
	if c.Base < 0 {
		errs = append(errs, keyErrorf(kueueKeyBaseSeconds, "backoff: base must not be negative, got %v", c.Base))
	}
	if c.Max < 0 {
		errs = append(errs, keyErrorf(kueueKeyMaxSeconds, "backoff: backoff max must not be negative, got %v", c.Max))
	}
	if c.Limit != nil && *c.Limit < 0 {
		errs = append(errs, keyErrorf(kueueKeyLimitCount, "backoff: backoff limit must not be negative, got %d", *c.Limit))
	}
	if !(c.Jitter >= 0 && c.Jitter < 1) {
		errs = append(errs, keyErrorf("jitter", "backoff: backoff jitter must be in [0, 1), got %v", c.Jitter))
	}
	if c.NoDelay && c.Base != 0 {
		errs = append(errs, keyErrorf(kueueKeyBaseSeconds, "backoff: backoff NoDelay is set but Base is %v (want 0)", c.Base))
	}
	if c.Uncapped && c.Max != 0 {
		errs = append(errs, keyErrorf(kueueKeyMaxSeconds, "backoff: backoff Uncapped is set but Max is %v (want 0)", c.Max))
	}
	if c.NoJitter && c.Jitter != 0 {
		errs = append(errs, keyErrorf("jitter", "backoff: backoff NoJitter is set but Jitter is %v (want 0)", c.Jitter))
	}
	if c.Base >= 0 && c.Max >= 0 && !c.ClampToMax {
		if base, max := c.bounds(); base > max {
			errs = append(errs, keyErrorf(kueueKeyBaseSeconds, "backoff: base %v exceeds max %v", base, max))
		}
	}
	return errors.Join(errs...)
}

// delay is [Config.Delay] without jitter: Base·2^(n-1) capped at Max, 0
// for n <= 0 and under NoDelay. It reads the fields in place.
func (c *Config) delay(n int) time.Duration {
	// The common cases first: no requeue yet, or no delay at all.
	if n <= 0 || c.NoDelay {
		return 0
	}
	base := c.Base
	if base <= 0 {
		base = defaultBase
	}
	return capDouble(base, capOf(c.Max, c.Uncapped), n-1)
}

// capDouble returns min(base·2^shift, max) for base > 0, max > 0,
// shift >= 0, without overflow: base·2^shift <= max exactly when
// base <= max>>shift. Any shift of 63 or more gives max, since max < 2^63
// <= base·2^63; testing it first also lets the compiler emit plain shifts.
func capDouble(base, max time.Duration, shift int) time.Duration {
	if shift >= 63 || base > max>>uint(shift) {
		return max
	}
	return base << uint(shift)
}

// Delay returns the delay of the n-th requeue: Base·2^(n-1) capped at Max
// (0 for n <= 0 and under NoDelay), plus floor(u·Jitter·delay) for the
// caller's draw u in [0, 1), such as rand.Float64() (u outside is clamped,
// NaN is 0; u = 0 adds nothing). The product is taken in the order of
// k8s.io/apimachinery wait.Jitter, so the delay is Kueue's to the
// nanosecond for the same u. It never overflows, for any n, and is
// non-decreasing in n for a fixed u. O(1), no allocation.
func (c Config) Delay(n int, u float64) time.Duration {
	d := c.delay(n)
	if d == 0 || !(u > 0) {
		return d
	}
	if u >= 1 {
		u = math.Nextafter(1, 0)
	}
	// u·f·float64(d) < float64(d) <= 2^63, so the conversion cannot overflow.
	j := time.Duration(u * c.jitter() * float64(d))
	if j > math.MaxInt64-d {
		j = math.MaxInt64 - d
	}
	if c.ClampToMax {
		if max := capOf(c.Max, c.Uncapped); j > max-d {
			return max
		}
	}
	return d + j
}
