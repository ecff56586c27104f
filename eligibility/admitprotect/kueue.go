package admitprotect

import (
	"errors"
	"time"

	"github.com/tenurepolicy/tenure/eligibility/internal/kueuejson"
)

// UnmarshalJSON reads Kueue's preemptionProtection block and reports every
// problem at once: an unknown key (letter case included), a bad duration,
// a rule that is not positive, each under its key relative to the block
// ("fairSharing.minAdmitDuration"), as Validate's errors are. On error c
// is unchanged.
func (c *Protection) UnmarshalJSON(data []byte) error {
	m, err := kueuejson.Object(data, "preemptionProtection", "", "fairSharing", "reclaimWithinCohort")
	errs := []error{err}
	var out Protection
	for _, f := range []struct {
		key string
		dst **time.Duration
	}{{"fairSharing", &out.FairSharing}, {"reclaimWithinCohort", &out.ReclaimWithinCohort}} {
		raw, ok := m[f.key]
		if !ok {
			continue
		}
		what := "preemptionProtection." + f.key
		r, err := kueuejson.Object(raw, what, f.key, "minAdmitDuration")
		errs = append(errs, err)
		if raw, ok := r["minAdmitDuration"]; ok {
			var derr error
			if *f.dst, derr = kueuejson.Duration(raw, what+": minAdmitDuration", f.key+".minAdmitDuration"); derr != nil {
				errs = append(errs, derr)
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
