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

// Config configures the exponential backoff applied to a job each time
// it is evicted because it did not become ready in time (Kueue's
// waitForPodsReady requeuing strategy, KEP-1282).
//
// The n-th requeue waits Base·2^(n-1), capped at Max, plus a random jitter of
// at most Jitter·delay. After Limit requeues the next readiness timeout
// deactivates the job instead (see [State.Timeout]). This is the
// computation of current Kueue (pkg/util/wait NewBackoff(base, max, 2,
// 0.0001) and its WaitTime, called from UpdateRequeueState in
// pkg/workload): the cap applies before the jitter, so a capped delay is Max
// plus its jitter. Older Kueue releases clamped the jittered delay instead;
// [Config.ClampToMax] selects that (see
// [KueueStrategy.ClampedStrategy]). [Config.Delay] computes the delay.
//
// # Zero value and explicit zeros
//
// The zero Config is ready to use and equals Kueue's defaults: a zero
// Base, Max or Jitter takes its default (60s, 1h, 0.0001), and a nil
// Limit means no limit. A zero that is
// meant literally is marked by a flag, so the zero value keeps its safe
// defaults and every setting Kueue accepts can still be expressed:
//
//   - NoDelay: every requeue waits 0 (Kueue: backoffBaseSeconds: 0); the
//     count and the limit still apply;
//   - Uncapped: no cap (Kueue: backoffMaxSeconds: 0, which Kueue's backoff
//     reads as "no cap"); delays double until they reach 2^62 ns (about
//     146 years), Kueue's own stand-in for a missing cap (pkg/util/wait
//     NewBackoff replaces a zero cap with MaxInt64/2), instead of
//     overflowing;
//   - NoJitter: the jitter fraction is exactly 0 (Kueue's is fixed at
//     0.0001 and cannot be changed there).
//
// A flag requires its field to be zero ([Config.Validate] reports a
// flag set beside a non-zero field; the methods then follow the flag).
//
// Config is a plain value: safe to copy and to use from any number of
// goroutines. Its methods never panic, even on a config that fails
// [Config.Validate]: negative durations and an out-of-range or NaN
// jitter are treated as unset (that is, as the default), a flag set beside a
// non-zero field wins, and Base > Max yields Max for every requeue.
type Config struct {
	// Base is the delay of the first requeue (Kueue: backoffBaseSeconds).
	// Zero means the default, 60s, unless NoDelay is set.
	Base time.Duration
	// Max caps the delay of every requeue (Kueue: backoffMaxSeconds).
	// Zero means the default, 1h, unless Uncapped is set.
	Max time.Duration
	// Limit is the number of requeues allowed before a readiness timeout
	// deactivates the job (Kueue: backoffLimitCount). Nil means no limit:
	// the job is requeued forever. A limit of 0 deactivates the job on its
	// first readiness timeout. (Go 1.24 has no literal of a *int: write
	// limit := 10 and then Limit: &limit.)
	Limit *int
	// Jitter is the jitter fraction in [0, 1): the n-th delay d grows by
	// u·Jitter·d for a random u in [0, 1). Zero means the default,
	// Kueue's fixed 0.0001, unless NoJitter is set.
	Jitter float64

	// NoDelay makes every delay 0 (Kueue: backoffBaseSeconds: 0): a
	// requeued job is admissible at once, while Count and Limit still
	// apply. Base must be 0.
	NoDelay bool
	// Uncapped removes the cap (Kueue: backoffMaxSeconds: 0). Max must be
	// 0.
	Uncapped bool
	// NoJitter makes the jitter fraction exactly 0. Jitter must be 0.
	NoJitter bool

	// ClampToMax keeps every delay, jitter included, within the cap:
	// [Config.Delay] returns at most Max (2^62 ns
	// when Uncapped), and a Base above Max is valid, every delay then being
	// Max. This is how Kueue computed the delay before pkg/util/wait
	// NewBackoff, as min(Step(), max) in the workload controller and later
	// in pkg/workload UpdateRequeueState; [KueueStrategy.ClampedStrategy]
	// reads a configuration that way. A delay without jitter (u = 0) is the
	// same either way.
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

// Validate reports every problem of c at once (joined with [errors.Join]),
// or nil. It rejects negative Base, Max and Limit, a Jitter outside [0, 1)
// (NaN included), a flag set beside a non-zero field (NoDelay with a Base,
// Uncapped with a Max, NoJitter with a Jitter), and, unless ClampToMax is
// set, an effective Base greater than the effective cap (so Base 2h with Max
// unset is rejected: the default Max is 1h; with Uncapped the cap is
// 2^62 ns). Each message starts with "backoff: ".
//
// Base > Max is the one setting current Kueue accepts that tenure refuses:
// Kueue's backoff (pkg/util/wait NewBackoff) returns the base itself for the
// first requeue and caps only the later ones, so the first delay exceeds the
// configured maximum. With NoDelay there is no such conflict, and with
// ClampToMax (older Kueue releases) every delay is then Max.
func (c Config) Validate() error {
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
// (0 for n <= 0 and under NoDelay; without a cap, Uncapped, the doubling
// stops at 2^62 ns), plus the jitter floor(u·Jitter·delay) for a random
// draw u in [0, 1) supplied by the caller, such as rand.Float64(): u = 0
// adds nothing (and so does NoJitter), and the jitter stays within
// Jitter·delay up to float64 rounding (one part in 2^51; with Kueue's
// 0.0001, under a nanosecond for any delay). A u outside [0, 1) is clamped
// into it (NaN counts as 0). The product is taken in the order Kueue's
// jitter (k8s.io/apimachinery wait.Jitter) takes it, so for the same draw
// the delay is Kueue's to the nanosecond. With ClampToMax the result is at
// most the cap. The sum saturates at the largest Duration.
//
// The cap is applied before multiplying, so the delay is exact and never
// overflows for any n (n = math.MaxInt returns Max plus its jitter). For a
// fixed u it is non-decreasing in n. Cost: O(1), no allocation.
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
