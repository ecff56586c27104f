package eligibility

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/tenurepolicy/tenure/runtime"
)

// This file reads and writes the Kueue configuration shapes of this package
// as JSON, in Kueue's key spelling. Durations are read in the one grammar
// of runtime.ParseDuration (Kueue's metav1.Duration strings such as "1h30m"
// parse unchanged, and so does tenure's "1d"), and written in Go's
// time.Duration.String form ("24h0m0s"), the only form Kueue's
// metav1.Duration reads, so that a written block can be handed to Kueue.
// Keys are matched exactly: an unknown key, a key in another letter case
// included, is an error naming it.

// jsonObject decodes data, which must be a JSON object or null, into its
// members, and reports every key (in sorted order, joined) that is not one
// of keys, exactly, letter case included. The members are returned with
// that error, so that a caller can go on and report the other problems too.
// A null gives a nil map.
func jsonObject(data []byte, keys ...string) (map[string]json.RawMessage, error) {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return nil, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("want an object with keys %s: %w", strings.Join(keys, ", "), err)
	}
	names := slices.Sorted(maps.Keys(m))
	var errs []error
	for _, k := range names {
		if !slices.Contains(keys, k) {
			errs = append(errs, fmt.Errorf("unknown key %q (want %s)", k, strings.Join(keys, ", ")))
		}
	}
	return m, errors.Join(errs...)
}

// prefixed returns err with each of its joined errors on its own line
// prefixed by prefix (nil for nil), so that a block's problems each name
// where they are.
func prefixed(prefix string, err error) error {
	if err == nil {
		return nil
	}
	var errs []error
	for _, line := range strings.Split(err.Error(), "\n") {
		errs = append(errs, errors.New(prefix+line))
	}
	return errors.Join(errs...)
}

// jsonDuration decodes a duration string (or null, giving nil).
func jsonDuration(raw json.RawMessage) (*time.Duration, error) {
	var s *string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("want a duration string such as \"10m\": %w", err)
	}
	if s == nil {
		return nil, nil
	}
	d, err := runtime.ParseDuration(*s)
	if err != nil {
		return nil, err
	}
	return &d, nil
}

// KueuePreemptionProtection mirrors Kueue's preemptionProtection
// configuration block (KEP-9876, apis/config/v1beta2 PreemptionProtection)
// field for field:
//
//	preemptionProtection:
//	  fairSharing:
//	    minAdmitDuration: 1h
//	  reclaimWithinCohort:
//	    minAdmitDuration: 10m
//
// It marshals to and from exactly that JSON. [KueuePreemptionProtection.AdmitProtection]
// converts it to an [AdmitProtection] and [AdmitProtection.Kueue] back.
type KueuePreemptionProtection struct {
	// FairSharing is the rule against fair-sharing preemption; nil when
	// absent.
	FairSharing *KueuePreemptionProtectionPolicy `json:"fairSharing,omitempty"`
	// ReclaimWithinCohort is the rule against reclaim; nil when absent.
	ReclaimWithinCohort *KueuePreemptionProtectionPolicy `json:"reclaimWithinCohort,omitempty"`
}

// KueuePreemptionProtectionPolicy is one rule of
// [KueuePreemptionProtection] (Kueue: PreemptionProtectionPolicy).
type KueuePreemptionProtectionPolicy struct {
	// MinAdmitDuration is the minimum admitted time; nil when absent (no
	// protection).
	MinAdmitDuration *time.Duration
}

// MarshalJSON writes {"minAdmitDuration":"10m0s"} (Go's
// time.Duration.String form, which Kueue's metav1.Duration reads), or {}
// when unset.
func (p KueuePreemptionProtectionPolicy) MarshalJSON() ([]byte, error) {
	if p.MinAdmitDuration == nil {
		return []byte("{}"), nil
	}
	return json.Marshal(map[string]string{"minAdmitDuration": p.MinAdmitDuration.String()})
}

// UnmarshalJSON reads {"minAdmitDuration":"10m"}; any other key is an
// error. Every problem is reported at once.
func (p *KueuePreemptionProtectionPolicy) UnmarshalJSON(data []byte) error {
	m, err := jsonObject(data, "minAdmitDuration")
	errs := []error{prefixed("eligibility: ", err)}
	var out KueuePreemptionProtectionPolicy
	if raw, ok := m["minAdmitDuration"]; ok {
		var derr error
		if out.MinAdmitDuration, derr = jsonDuration(raw); derr != nil {
			errs = append(errs, fmt.Errorf("eligibility: minAdmitDuration: %w", derr))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	*p = out
	return nil
}

// UnmarshalJSON reads Kueue's preemptionProtection block; every unknown key
// at any level is an error naming it, and every problem is reported at
// once.
func (k *KueuePreemptionProtection) UnmarshalJSON(data []byte) error {
	m, err := jsonObject(data, "fairSharing", "reclaimWithinCohort")
	errs := []error{prefixed("eligibility: preemptionProtection: ", err)}
	var out KueuePreemptionProtection
	for _, f := range []struct {
		key string
		dst **KueuePreemptionProtectionPolicy
	}{{"fairSharing", &out.FairSharing}, {"reclaimWithinCohort", &out.ReclaimWithinCohort}} {
		if raw, ok := m[f.key]; ok {
			if err := json.Unmarshal(raw, f.dst); err != nil {
				errs = append(errs, prefixed("eligibility: preemptionProtection."+f.key+": ", trimPrefix(err)))
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	*k = out
	return nil
}

// trimPrefix drops "eligibility: " from each line of a nested error so
// that the wrapping message carries the prefix once per line.
func trimPrefix(err error) error {
	var errs []error
	for _, line := range strings.Split(err.Error(), "\n") {
		line, _ = strings.CutPrefix(line, "eligibility: ")
		errs = append(errs, errors.New(line))
	}
	return errors.Join(errs...)
}

// AdmitProtection converts k to a validated [AdmitProtection]: a rule without
// minAdmitDuration is unset; a minAdmitDuration must be positive. Every
// problem is reported at once; on error the result is the zero value.
func (k KueuePreemptionProtection) AdmitProtection() (AdmitProtection, error) {
	var c AdmitProtection
	if p := k.FairSharing; p != nil && p.MinAdmitDuration != nil {
		d := *p.MinAdmitDuration
		c.FairSharing = &d
	}
	if p := k.ReclaimWithinCohort; p != nil && p.MinAdmitDuration != nil {
		d := *p.MinAdmitDuration
		c.ReclaimWithinCohort = &d
	}
	if err := c.Validate(); err != nil {
		return AdmitProtection{}, err
	}
	return c, nil
}

// Kueue converts c to Kueue's shape: a rule block exactly for each rule
// set. It does not validate.
func (c AdmitProtection) Kueue() KueuePreemptionProtection {
	var k KueuePreemptionProtection
	if d := c.FairSharing; d != nil {
		v := *d
		k.FairSharing = &KueuePreemptionProtectionPolicy{MinAdmitDuration: &v}
	}
	if d := c.ReclaimWithinCohort; d != nil {
		v := *d
		k.ReclaimWithinCohort = &KueuePreemptionProtectionPolicy{MinAdmitDuration: &v}
	}
	return k
}

// kueueWithinClusterQueueJSON is KueueWithinClusterQueue's JSON form.
type kueueWithinClusterQueueJSON struct {
	WithinClusterQueue       string                             `json:"withinClusterQueue,omitempty"`
	WithinClusterQueueConfig *kueueWithinClusterQueueConfigJSON `json:"withinClusterQueueConfig,omitempty"`
}

type kueueWithinClusterQueueConfigJSON struct {
	MinAdmitDuration *string `json:"minAdmitDuration,omitempty"`
}

// MarshalJSON writes Kueue's spelling:
// {"withinClusterQueue":"LowerOrNewerEqualPriority","withinClusterQueueConfig":{"minAdmitDuration":"4h0m0s"}},
// leaving out what is unset; the duration in Go's time.Duration.String
// form, which Kueue's metav1.Duration reads.
func (k KueueWithinClusterQueue) MarshalJSON() ([]byte, error) {
	out := kueueWithinClusterQueueJSON{WithinClusterQueue: k.WithinClusterQueue}
	if b := k.WithinClusterQueueConfig; b != nil {
		out.WithinClusterQueueConfig = &kueueWithinClusterQueueConfigJSON{}
		if b.MinAdmitDuration != nil {
			s := b.MinAdmitDuration.String()
			out.WithinClusterQueueConfig.MinAdmitDuration = &s
		}
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads Kueue's spelling; every unknown key at any level is
// an error naming it, and every problem is reported at once. Values are
// checked by [KueueWithinClusterQueue.PreemptionConfig].
func (k *KueueWithinClusterQueue) UnmarshalJSON(data []byte) error {
	m, err := jsonObject(data, "withinClusterQueue", "withinClusterQueueConfig")
	errs := []error{prefixed("eligibility: preemption: ", err)}
	var out KueueWithinClusterQueue
	if raw, ok := m["withinClusterQueue"]; ok {
		if err := json.Unmarshal(raw, &out.WithinClusterQueue); err != nil {
			errs = append(errs, fmt.Errorf("eligibility: preemption.withinClusterQueue: %w", err))
		}
	}
	if raw, ok := m["withinClusterQueueConfig"]; ok {
		b, err := jsonObject(raw, "minAdmitDuration")
		errs = append(errs, prefixed("eligibility: preemption.withinClusterQueueConfig: ", err))
		if b != nil {
			out.WithinClusterQueueConfig = &KueueWithinClusterQueueConfig{}
			if raw, ok := b["minAdmitDuration"]; ok {
				var derr error
				if out.WithinClusterQueueConfig.MinAdmitDuration, derr = jsonDuration(raw); derr != nil {
					errs = append(errs, fmt.Errorf("eligibility: preemption.withinClusterQueueConfig.minAdmitDuration: %w", derr))
				}
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	*k = out
	return nil
}
