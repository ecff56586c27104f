package admitprotect

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/eligibility/internal/kueuejson"
)

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
// It marshals to and from exactly that JSON. [KueuePreemptionProtection.Protection]
// converts it to an [Protection] and [Protection.Kueue] back.
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
	m, err := kueuejson.Object(data, "minAdmitDuration")
	errs := []error{kueuejson.Prefixed("eligibility: ", err)}
	var out KueuePreemptionProtectionPolicy
	if raw, ok := m["minAdmitDuration"]; ok {
		var derr error
		if out.MinAdmitDuration, derr = kueuejson.Duration(raw); derr != nil {
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
	m, err := kueuejson.Object(data, "fairSharing", "reclaimWithinCohort")
	errs := []error{kueuejson.Prefixed("eligibility: preemptionProtection: ", err)}
	var out KueuePreemptionProtection
	for _, f := range []struct {
		key string
		dst **KueuePreemptionProtectionPolicy
	}{{"fairSharing", &out.FairSharing}, {"reclaimWithinCohort", &out.ReclaimWithinCohort}} {
		if raw, ok := m[f.key]; ok {
			if err := json.Unmarshal(raw, f.dst); err != nil {
				errs = append(errs, kueuejson.Prefixed("eligibility: preemptionProtection."+f.key+": ", kueuejson.TrimPrefix(err)))
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	*k = out
	return nil
}

// Protection converts k to a validated [Protection]: a rule without
// minAdmitDuration is unset; a minAdmitDuration must be positive. Every
// problem is reported at once; on error the result is the zero value.
func (k KueuePreemptionProtection) Protection() (Protection, error) {
	var c Protection
	if p := k.FairSharing; p != nil && p.MinAdmitDuration != nil {
		d := *p.MinAdmitDuration
		c.FairSharing = &d
	}
	if p := k.ReclaimWithinCohort; p != nil && p.MinAdmitDuration != nil {
		d := *p.MinAdmitDuration
		c.ReclaimWithinCohort = &d
	}
	if err := c.Validate(); err != nil {
		return Protection{}, err
	}
	return c, nil
}

// Kueue converts c to Kueue's shape: a rule block exactly for each rule
// set. It does not validate.
func (c Protection) Kueue() KueuePreemptionProtection {
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
