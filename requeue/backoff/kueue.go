package backoff

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// Kueue's field names in its requeuing strategy
// (waitForPodsReady.requeuingStrategy), the keys of [Strategy]'s JSON.
const (
	// kueueKeyTimestamp is the key of the queue-order timestamp strategy
	// ("Eviction" or "Creation").
	kueueKeyTimestamp = "timestamp"
	// kueueKeyBaseSeconds is the key of the base delay in seconds.
	kueueKeyBaseSeconds = "backoffBaseSeconds"
	// kueueKeyMaxSeconds is the key of the maximum delay in seconds.
	kueueKeyMaxSeconds = "backoffMaxSeconds"
	// kueueKeyLimitCount is the key of the number of requeues allowed.
	kueueKeyLimitCount = "backoffLimitCount"
)

// kueueStrategy mirrors Kueue's waitForPodsReady.requeuingStrategy field
// for field (apis/config/v1beta1 and v1beta2 RequeuingStrategy): nil means
// unset, use the default. It is the JSON form of a [Strategy]: strategy
// converts it to one (the tests' writer back; the round trip returns
// exactly the input, nil pointers and explicit zeros included.
type kueueStrategy struct {
	// Timestamp is "Eviction" (the default) or "Creation", spelt exactly so.
	Timestamp *string `json:"timestamp,omitempty"`
	// BackoffLimitCount is Config.Limit; nil means no limit.
	BackoffLimitCount *int32 `json:"backoffLimitCount,omitempty"`
	// BackoffBaseSeconds is the base delay; nil means 60, 0 no delay.
	BackoffBaseSeconds *int32 `json:"backoffBaseSeconds,omitempty"`
	// BackoffMaxSeconds is the cap; nil means 3600, 0 no cap.
	BackoffMaxSeconds *int32 `json:"backoffMaxSeconds,omitempty"`
}

// kueueKeys are Kueue's keys, in the order messages list them.
var kueueKeys = []string{kueueKeyTimestamp, kueueKeyLimitCount, kueueKeyBaseSeconds, kueueKeyMaxSeconds}

// UnmarshalJSON reads Kueue's requeuingStrategy object
// (waitForPodsReady.requeuingStrategy, apis/config/v1beta1 and v1beta2
// RequeuingStrategy) as current Kueue reads it (pkg/workload
// UpdateRequeueState): an absent key is the default, backoffBaseSeconds 0
// is Config.NoDelay, backoffMaxSeconds 0 is Config.Uncapped, timestamp
// "Eviction" or "Creation" (an explicit "Eviction" is kept apart from an
// absent one), and the jitter is Kueue's 0.0001. It reports every problem at
// once, each starting with "backoff: ": a key that is not one of Kueue's
// four, spelt exactly (encoding/json would match any case and ignore
// unknown keys), a value of the wrong JSON type, an unknown timestamp,
// negative values, and a base above the max. null leaves s unchanged; on
// error s is unchanged.
func (s *Strategy) UnmarshalJSON(data []byte) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return nil
	}
	var k kueueStrategy
	if err := k.decode(data); err != nil {
		return err
	}
	out, err := k.strategy(false)
	if err != nil {
		return err
	}
	*s = out
	return nil
}

// decode reads Kueue's requeuingStrategy object into k, checking the keys
// and the JSON types (not the values: strategy does), every problem at
// once. null leaves k unchanged.
func (k *kueueStrategy) decode(data []byte) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return fmt.Errorf("backoff: requeuingStrategy: want an object: %w", err)
	}
	var errs []error
	for _, key := range slices.Sorted(maps.Keys(m)) {
		if !slices.Contains(kueueKeys, key) {
			errs = append(errs, keyErrorf(key, "backoff: requeuingStrategy: unknown key %q (want %s)", key, strings.Join(kueueKeys, ", ")))
		}
	}
	type plain kueueStrategy // without the tests' UnmarshalJSON
	var out plain
	if err := json.Unmarshal(data, &out); err != nil {
		if te, ok := err.(*json.UnmarshalTypeError); ok {
			errs = append(errs, keyErrorf(te.Field, "backoff: requeuingStrategy.%s: got a JSON %s, want %v", te.Field, te.Value, te.Type))
		} else {
			errs = append(errs, fmt.Errorf("backoff: requeuingStrategy: %w", err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	*k = kueueStrategy(out)
	return nil
}

// Strategy is Kueue's requeuing strategy in tenure's types: the
// queue-order timestamp strategy and the backoff. The zero value is Kueue's
// default. It reads Kueue's JSON ([Strategy.UnmarshalJSON]; tenure does
// not write it); a fork that holds Kueue's Go struct
// (configapi.RequeuingStrategy) converts it through that JSON, whose
// spelling the struct's tags give:
//
//	data, _ := json.Marshal(rs)
//	var s backoff.Strategy
//	err := json.Unmarshal(data, &s)
type Strategy struct {
	// Timestamp chooses the queue-order timestamp; nil means
	// [TimestampEviction] (a pointer, so that unset and explicit "Eviction"
	// survive a round trip).
	Timestamp *TimestampStrategy
	// Backoff is the requeue backoff.
	Backoff Config
}

// Validate reports every problem of s at once, each message starting with
// "backoff: ": an unknown timestamp strategy; in Backoff, a negative Base,
// Max or Limit, a Jitter outside [0, 1) or NaN, a flag beside a non-zero
// field, and, unless ClampToMax is set, an effective Base above the
// effective cap (Base 2h with Max unset is refused: the default Max is
// 1h). To check a lone [Config] c: Strategy{Backoff: c}.Validate().
func (s Strategy) Validate() error {
	var errs []error
	if s.Timestamp != nil && *s.Timestamp > TimestampCreation {
		errs = append(errs, keyErrorf(kueueKeyTimestamp, "backoff: unknown timestamp strategy %d", uint8(*s.Timestamp)))
	}
	if err := s.Backoff.validate(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// strategy converts k to a validated Strategy as [Strategy.UnmarshalJSON]
// documents and, with clamped, as Kueue releases before pkg/util/wait
// NewBackoff read it (min(Step(), max)): a zero max caps every delay at
// zero (NoDelay), a base above the max is capped, and ClampToMax is set.
// On error the strategy is the zero value.
func (k kueueStrategy) strategy(clamped bool) (Strategy, error) {
	var errs []error
	var s Strategy
	if p := k.Timestamp; p != nil {
		switch *p {
		case "Eviction":
			s.Timestamp = timestampPtr(TimestampEviction)
		case "Creation":
			s.Timestamp = timestampPtr(TimestampCreation)
		default:
			errs = append(errs, keyErrorf(kueueKeyTimestamp, "backoff: %s: unsupported value %q (want Eviction or Creation)", kueueKeyTimestamp, *p))
		}
	}
	c := &s.Backoff
	if p := k.BackoffBaseSeconds; p != nil {
		c.Base = time.Duration(*p) * time.Second // |int32|·1e9 fits in int64
		c.NoDelay = *p == 0
	}
	if p := k.BackoffMaxSeconds; p != nil {
		c.Max = time.Duration(*p) * time.Second
		c.Uncapped = *p == 0
	}
	c.ClampToMax = clamped
	if p := k.BackoffLimitCount; p != nil {
		c.Limit = limit(int(*p))
	}
	if err := c.validate(); err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return Strategy{}, err
	}
	if clamped && c.Uncapped { // older releases: a zero max caps every delay at zero
		c.Base, c.Max, c.NoDelay, c.Uncapped = 0, 0, true, false
	}
	return s, nil
}

func timestampPtr(s TimestampStrategy) *TimestampStrategy { return &s }

func limit(n int) *int { return &n }
