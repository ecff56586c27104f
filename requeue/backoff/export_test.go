package backoff

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"
)

// The package's defaults and a *int literal, for its tests.
const (
	DefaultBase   = defaultBase
	DefaultMax    = defaultMax
	DefaultJitter = defaultJitter
	UncappedMax   = uncappedMax
)

func Limit(n int) *int { return &n }

// KueueStrategy is the JSON form of a Strategy, field for field, for the
// tests of the conversions Strategy's UnmarshalJSON and MarshalJSON make.
type KueueStrategy = kueueStrategy

// UnmarshalJSON is the decoding half of Strategy.UnmarshalJSON: keys and
// JSON types, not the values.
func (k *kueueStrategy) UnmarshalJSON(data []byte) error { return k.decode(data) }

// Strategy is the converting half of Strategy.UnmarshalJSON.
func (k kueueStrategy) Strategy() (Strategy, error) { return k.strategy(false) }

// Kueue is the converting half of MarshalJSON.
func (s Strategy) Kueue() (KueueStrategy, error) { return s.kueue() }

// ClampedStrategy reads k as Kueue releases before pkg/util/wait
// NewBackoff did (Config.ClampToMax).
func (k KueueStrategy) ClampedStrategy() (Strategy, error) { return k.strategy(true) }

// QueueOrder returns the queue order s selects.
func (s Strategy) QueueOrder() QueueOrder {
	if s.Timestamp == nil {
		return QueueOrder{}
	}
	return QueueOrder{Strategy: *s.Timestamp}
}

func (s TimestampStrategy) String() string { return s.kueueName() }

// Validate is validate, the checks Strategy.Validate makes of its Backoff.
func (c Config) Validate() error { return c.validate() }

// MarshalJSON is the tests' writer of s in Kueue's shape, the inverse of
// Strategy.UnmarshalJSON (the library only reads it): unset fields are left out, NoDelay and
// Uncapped are an explicit 0. ClampToMax is no field of Kueue's: a
// strategy with it gives the fields an older release reads the same way.
// It reports every problem at once: a Base or Max not a whole number of
// seconds in [1, 2^31−1], a Limit above 2^31−1, a jitter other than
// 0.0001, and any problem of Validate.
func (s Strategy) MarshalJSON() ([]byte, error) {
	k, err := s.kueue()
	if err != nil {
		return nil, err
	}
	return json.Marshal(k)
}

// kueue converts s to Kueue's shape as MarshalJSON documents:
// unset fields become nil, NoDelay and Uncapped an explicit 0. On error
// the result is the zero value.
func (s Strategy) kueue() (kueueStrategy, error) {
	errs := []error{s.Validate()}
	var k kueueStrategy
	if s.Timestamp != nil && *s.Timestamp <= TimestampCreation {
		name := s.Timestamp.kueueName()
		k.Timestamp = &name
	}
	c := s.Backoff
	seconds := func(key string, d time.Duration) *int32 {
		if d < 0 { // reported by Validate
			return nil
		}
		if d%time.Second != 0 || d/time.Second > math.MaxInt32 {
			errs = append(errs, keyErrorf(key, "backoff: %s cannot express %v (want whole seconds up to %d)", key, d, math.MaxInt32))
			return nil
		}
		v := int32(d / time.Second)
		return &v
	}
	switch {
	case c.NoDelay:
		k.BackoffBaseSeconds = new(int32)
	case c.Base != 0:
		k.BackoffBaseSeconds = seconds(kueueKeyBaseSeconds, c.Base)
	}
	switch {
	case c.Uncapped:
		k.BackoffMaxSeconds = new(int32)
	case c.Max != 0:
		k.BackoffMaxSeconds = seconds(kueueKeyMaxSeconds, c.Max)
	}
	if c.Limit != nil {
		if *c.Limit > math.MaxInt32 {
			errs = append(errs, keyErrorf(kueueKeyLimitCount, "backoff: %s cannot express %d (want at most %d)", kueueKeyLimitCount, *c.Limit, math.MaxInt32))
		} else if *c.Limit >= 0 {
			v := int32(*c.Limit)
			k.BackoffLimitCount = &v
		}
	}
	if c.NoJitter || (c.Jitter != 0 && c.Jitter != defaultJitter) {
		errs = append(errs, keyErrorf("jitter", "backoff: Kueue's jitter is fixed at %v; cannot express jitter %v (NoJitter %v)", defaultJitter, c.Jitter, c.NoJitter))
	}
	if err := errors.Join(errs...); err != nil {
		return kueueStrategy{}, err
	}
	return k, nil
}

// kueueName returns "Eviction" or "Creation" (Kueue's spelling), or
// "TimestampStrategy(N)" for an unknown value.
func (s TimestampStrategy) kueueName() string {
	switch s {
	case TimestampEviction:
		return "Eviction"
	case TimestampCreation:
		return "Creation"
	}
	return fmt.Sprintf("TimestampStrategy(%d)", uint8(s))
}
