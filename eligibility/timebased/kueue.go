package timebased

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/tenurepolicy/tenure/eligibility/internal/configkey"
	"github.com/tenurepolicy/tenure/eligibility/internal/kueuejson"
)

// UnmarshalJSON reads Kueue's preemption block and reports every problem
// at once: an unknown key (letter case included), a policy not spelt
// exactly as Kueue's, and KEP-8522's webhook rules (minAdmitDuration at
// least 1m; a withinClusterQueueConfig block, even empty, only with
// LowerOrNewerEqualPriority), each under its key relative to the block
// ("withinClusterQueueConfig.minAdmitDuration"), as Validate's errors are.
// On error c is unchanged.
func (c *Config) UnmarshalJSON(data []byte) error {
	m, err := kueuejson.Object(data, "preemption", "", "withinClusterQueue", "withinClusterQueueConfig")
	errs := []error{err}
	var policy string
	var block map[string]json.RawMessage
	var minAdmit *time.Duration
	if raw, ok := m["withinClusterQueue"]; ok {
		if err := json.Unmarshal(raw, &policy); err != nil {
			errs = append(errs, configkey.Errorf("withinClusterQueue", "eligibility: preemption.withinClusterQueue: %w", err))
		}
	}
	if raw, ok := m["withinClusterQueueConfig"]; ok {
		var err error
		block, err = kueuejson.Object(raw, "preemption.withinClusterQueueConfig", "withinClusterQueueConfig", "minAdmitDuration")
		errs = append(errs, err)
		if raw, ok := block["minAdmitDuration"]; ok {
			var derr error
			if minAdmit, derr = kueuejson.Duration(raw, "preemption.withinClusterQueueConfig.minAdmitDuration", "withinClusterQueueConfig.minAdmitDuration"); derr != nil {
				errs = append(errs, derr)
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	out := Config{TimestampPreemptionBuffer: c.TimestampPreemptionBuffer}
	known := true
	switch policy {
	case "", "Never":
	case "LowerPriority":
		out.Policy = LowerPriority
	case "LowerOrNewerEqualPriority":
		out.Policy = LowerOrNewerEqualPriority
	default:
		known = false
		errs = append(errs, configkey.Errorf("withinClusterQueue", "eligibility: withinClusterQueue: unsupported value %q (want Never, LowerPriority or LowerOrNewerEqualPriority)", policy))
	}
	if block != nil {
		if m := minAdmit; m != nil {
			if *m < minAdmitDurationFloor {
				errs = append(errs, configkey.Errorf("withinClusterQueueConfig.minAdmitDuration", "eligibility: withinClusterQueueConfig.minAdmitDuration must be at least %v, got %v", minAdmitDurationFloor, *m))
			}
			out.MinAdmitDuration = m
		}
		if known && out.Policy != LowerOrNewerEqualPriority { // rule 3
			errs = append(errs, configkey.Errorf("withinClusterQueueConfig", "eligibility: withinClusterQueueConfig is only valid with withinClusterQueue %v, not %v",
				LowerOrNewerEqualPriority.name(), out.Policy.name()))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	*c = out
	return nil
}
