package admitprotect

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/eligibility/internal/kueuejson"
)

// kueueRule is one rule of Protection's JSON form.
type kueueRule struct {
	MinAdmitDuration string `json:"minAdmitDuration"`
}

// kueueJSON is Protection's JSON form, Kueue's preemptionProtection block.
type kueueJSON struct {
	FairSharing         *kueueRule `json:"fairSharing,omitempty"`
	ReclaimWithinCohort *kueueRule `json:"reclaimWithinCohort,omitempty"`
}

// MarshalJSON writes Kueue's preemptionProtection block, for example
// {"fairSharing":{"minAdmitDuration":"1h0m0s"}}, durations in Go's form
// (which Kueue's metav1.Duration reads). It does not validate.
func (c Protection) MarshalJSON() ([]byte, error) {
	var k kueueJSON
	if d := c.FairSharing; d != nil {
		k.FairSharing = &kueueRule{d.String()}
	}
	if d := c.ReclaimWithinCohort; d != nil {
		k.ReclaimWithinCohort = &kueueRule{d.String()}
	}
	return json.Marshal(k)
}

// UnmarshalJSON reads Kueue's preemptionProtection block and reports every
// problem at once: an unknown key (letter case included), a bad duration,
// a rule that is not positive. On error c is unchanged.
func (c *Protection) UnmarshalJSON(data []byte) error {
	m, err := kueuejson.Object(data, "fairSharing", "reclaimWithinCohort")
	errs := []error{kueuejson.Prefixed("eligibility: preemptionProtection: ", err)}
	var out Protection
	for _, f := range []struct {
		key string
		dst **time.Duration
	}{{"fairSharing", &out.FairSharing}, {"reclaimWithinCohort", &out.ReclaimWithinCohort}} {
		raw, ok := m[f.key]
		if !ok {
			continue
		}
		prefix := "eligibility: preemptionProtection." + f.key + ": "
		r, err := kueuejson.Object(raw, "minAdmitDuration")
		errs = append(errs, kueuejson.Prefixed(prefix, err))
		if raw, ok := r["minAdmitDuration"]; ok {
			var derr error
			if *f.dst, derr = kueuejson.Duration(raw); derr != nil {
				errs = append(errs, fmt.Errorf("%sminAdmitDuration: %w", prefix, derr))
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if err := out.Validate(); err != nil {
		return err
	}
	*c = out
	return nil
}
