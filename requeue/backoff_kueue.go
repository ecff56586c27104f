package requeue

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"
)

// Kueue's field names for the backoff settings of its requeuing strategy
// (waitForPodsReady.requeuingStrategy), the keys [BackoffFromKueueMap] reads.
const (
	// BackoffKeyBaseSeconds is the key of the base delay in seconds.
	BackoffKeyBaseSeconds = "backoffBaseSeconds"
	// BackoffKeyMaxSeconds is the key of the maximum delay in seconds.
	BackoffKeyMaxSeconds = "backoffMaxSeconds"
	// BackoffKeyLimitCount is the key of the number of requeues allowed.
	BackoffKeyLimitCount = "backoffLimitCount"
)

// BackoffKueueFields mirrors the backoff fields of Kueue's RequeuingStrategy
// as its API declares them (optional 32-bit integers), for schedulers that
// fork Kueue and already hold these values. Nil means unset (the default).
type BackoffKueueFields struct {
	// BackoffBaseSeconds is the base delay in seconds; nil means 60.
	BackoffBaseSeconds *int32
	// BackoffMaxSeconds is the cap in seconds; nil means 3600.
	BackoffMaxSeconds *int32
	// BackoffLimitCount is the number of requeues before deactivation;
	// nil means no limit.
	BackoffLimitCount *int32
}

// Config converts f to a validated [BackoffConfig] (jitter: the default).
// It returns every problem at once: negative values, a base or max of
// exactly 0 (a zero BackoffConfig field means "default", so an explicit 0
// is rejected rather than silently turned into 60 or 3600), and a base
// above the max. On error the returned config is the zero value.
func (f BackoffKueueFields) Config() (BackoffConfig, error) {
	var errs []error
	var c BackoffConfig
	if p := f.BackoffBaseSeconds; p != nil {
		if *p == 0 {
			errs = append(errs, fmt.Errorf("requeue: %s must be at least 1, got 0", BackoffKeyBaseSeconds))
		}
		c.Base = time.Duration(*p) * time.Second // |int32|·1e9 fits in int64
	}
	if p := f.BackoffMaxSeconds; p != nil {
		if *p == 0 {
			errs = append(errs, fmt.Errorf("requeue: %s must be at least 1, got 0", BackoffKeyMaxSeconds))
		}
		c.Max = time.Duration(*p) * time.Second
	}
	if p := f.BackoffLimitCount; p != nil {
		c.Limit = BackoffLimit(int(*p))
	}
	if err := c.Validate(); err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return BackoffConfig{}, err
	}
	return c, nil
}

// BackoffFromKueueMap builds a [BackoffConfig] from string settings keyed by
// Kueue's field names ([BackoffKeyBaseSeconds], [BackoffKeyMaxSeconds],
// [BackoffKeyLimitCount]), such as a flattened configuration file or a
// ConfigMap. Values are base-10 integers that fit in 32 bits; an absent key
// is unset. Unknown keys, unparsable values and every problem
// [BackoffKueueFields.Config] finds are reported together, in key order.
// On error the returned config is the zero value.
func BackoffFromKueueMap(m map[string]string) (BackoffConfig, error) {
	var errs []error
	var f BackoffKueueFields
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		var dst **int32
		switch k {
		case BackoffKeyBaseSeconds:
			dst = &f.BackoffBaseSeconds
		case BackoffKeyMaxSeconds:
			dst = &f.BackoffMaxSeconds
		case BackoffKeyLimitCount:
			dst = &f.BackoffLimitCount
		default:
			errs = append(errs, fmt.Errorf("requeue: unknown backoff setting %q", k))
			continue
		}
		v, err := strconv.ParseInt(m[k], 10, 32)
		if err != nil {
			errs = append(errs, fmt.Errorf("requeue: %s: %q is not a 32-bit integer", k, m[k]))
			continue
		}
		v32 := int32(v)
		*dst = &v32
	}
	c, err := f.Config()
	if err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return BackoffConfig{}, err
	}
	return c, nil
}
