package timebased

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/eligibility/internal/configkey"
	"github.com/tenurepolicy/tenure/eligibility/internal/kueuejson"
)

// Kueue's reasons for a preemption within a ClusterQueue: the reason of the
// preempted Workload's Preempted condition and the reason label of
// Kueue's kueue_preempted_workloads_total metric. They are Kueue's spelling,
// not tenure [eligibility.Reason] labels; [Class.KueueReason] picks one.
const (
	// kueueReasonInClusterQueue is Kueue's reason for a preemption by
	// priority within a ClusterQueue (kubernetes-sigs/kueue
	// apis/kueue/v1beta2: InClusterQueueReason): a lower-priority or newer
	// equal-priority pick.
	kueueReasonInClusterQueue = "InClusterQueue"
	// kueueReasonInClusterQueueTimeBased is KEP-8522's reason for a
	// time-based pick: an equal-priority job that held its quota longer than
	// minAdmitDuration.
	kueueReasonInClusterQueueTimeBased = "InClusterQueueTimeBased"
)

// KueueReason returns the reason Kueue reports when it preempts a candidate
// of class c within its ClusterQueue: [kueueReasonInClusterQueueTimeBased]
// for [ClassExpired], [kueueReasonInClusterQueue] for [ClassLowerPriority]
// and [ClassNewer], and "" for the classes that are not preemptible.
func (c Class) KueueReason() string {
	switch c {
	case ClassExpired:
		return kueueReasonInClusterQueueTimeBased
	case ClassLowerPriority, ClassNewer:
		return kueueReasonInClusterQueue
	}
	return ""
}

// KueueWithinClusterQueue mirrors the within-queue part of Kueue's
// ClusterQueue preemption settings with KEP-8522's addition, field for
// field (keps/8522-time-based-same-priority-preemption, "API Changes"):
//
//	preemption:
//	  withinClusterQueue: LowerOrNewerEqualPriority
//	  withinClusterQueueConfig:
//	    minAdmitDuration: 4h
//
// Unlike the flat [Config], it keeps whether the
// withinClusterQueueConfig block is present, so that
// [KueueWithinClusterQueue.Config] can apply rule 3 of the KEP's "Webhook
// Validation" section (the block is an error with Never or LowerPriority,
// even when it sets nothing).
type KueueWithinClusterQueue struct {
	// WithinClusterQueue is the policy, spelt as Kueue's API does:
	// "Never", "LowerPriority" or "LowerOrNewerEqualPriority". Empty means
	// unset: Kueue's default, Never.
	WithinClusterQueue string
	// WithinClusterQueueConfig is the optional block; nil when absent.
	WithinClusterQueueConfig *KueueWithinClusterQueueConfig
}

// KueueWithinClusterQueueConfig is KEP-8522's withinClusterQueueConfig.
type KueueWithinClusterQueueConfig struct {
	// MinAdmitDuration is how long a job must have held its quota
	// reservation before an equal-priority job may preempt it (a
	// metav1.Duration in Kueue). Nil disables the time-based rule.
	MinAdmitDuration *time.Duration
}

// Config converts k to a validated [Config], applying the KEP's
// webhook validation and reporting every problem at once (each message
// starts with "eligibility: "):
//
//  1. minAdmitDuration must be at least [minAdmitDurationFloor] (1m);
//     0 and negatives are rejected;
//  2. a withinClusterQueueConfig block without minAdmitDuration is valid
//     and has no effect;
//  3. the block is only valid with LowerOrNewerEqualPriority: present with
//     Never (the default) or LowerPriority it is an error, even empty.
//
// A policy other than the three names, spelt exactly (Kueue's API enum is
// case-sensitive; "Any" is valid only for cohort preemption), is an error
// too. On error the returned config is the zero value.
func (k KueueWithinClusterQueue) Config() (Config, error) {
	var errs []error
	var c Config
	switch k.WithinClusterQueue {
	case "", "Never":
		c.Policy = Never
	case "LowerPriority":
		c.Policy = LowerPriority
	case "LowerOrNewerEqualPriority":
		c.Policy = LowerOrNewerEqualPriority
	default:
		errs = append(errs, configkey.Errorf("withinClusterQueue", "eligibility: withinClusterQueue: unsupported value %q (want Never, LowerPriority or LowerOrNewerEqualPriority)", k.WithinClusterQueue))
	}
	if b := k.WithinClusterQueueConfig; b != nil {
		if m := b.MinAdmitDuration; m != nil {
			if *m < minAdmitDurationFloor {
				errs = append(errs, configkey.Errorf("withinClusterQueueConfig.minAdmitDuration", "eligibility: withinClusterQueueConfig.minAdmitDuration must be at least %v, got %v", minAdmitDurationFloor, *m))
			}
			d := *m
			c.MinAdmitDuration = &d
		}
		// KEP-8522 webhook validation rule 3 (an unknown policy is reported above instead).
		if knownWithinPolicy(k.WithinClusterQueue) && c.Policy != LowerOrNewerEqualPriority {
			errs = append(errs, configkey.Errorf("withinClusterQueueConfig", "eligibility: withinClusterQueueConfig is only valid with withinClusterQueue %v, not %v",
				LowerOrNewerEqualPriority, c.Policy))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return Config{}, err
	}
	return c, nil
}

// knownWithinPolicy reports whether s is one of the policy spellings Config
// accepts (the empty default included).
func knownWithinPolicy(s string) bool {
	switch s {
	case "", "Never", "LowerPriority", "LowerOrNewerEqualPriority":
		return true
	}
	return false
}

// Kueue converts c to Kueue's shape: the policy's name, and a
// withinClusterQueueConfig block exactly when MinAdmitDuration is set (an
// empty block has no effect, so none is written). It does not validate; an
// unknown policy converts to its String form ("Policy(N)"), which
// [KueueWithinClusterQueue.Config] rejects. TimestampPreemptionBuffer is
// not carried: in Kueue it is a feature gate of the whole scheduler, not a
// ClusterQueue field.
func (c Config) Kueue() KueueWithinClusterQueue {
	k := KueueWithinClusterQueue{WithinClusterQueue: c.Policy.String()}
	if m := c.MinAdmitDuration; m != nil {
		d := *m
		k.WithinClusterQueueConfig = &KueueWithinClusterQueueConfig{MinAdmitDuration: &d}
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
// checked by [KueueWithinClusterQueue.Config].
func (k *KueueWithinClusterQueue) UnmarshalJSON(data []byte) error {
	m, err := kueuejson.Object(data, "withinClusterQueue", "withinClusterQueueConfig")
	errs := []error{kueuejson.Prefixed("eligibility: preemption: ", err)}
	var out KueueWithinClusterQueue
	if raw, ok := m["withinClusterQueue"]; ok {
		if err := json.Unmarshal(raw, &out.WithinClusterQueue); err != nil {
			errs = append(errs, fmt.Errorf("eligibility: preemption.withinClusterQueue: %w", err))
		}
	}
	if raw, ok := m["withinClusterQueueConfig"]; ok {
		b, err := kueuejson.Object(raw, "minAdmitDuration")
		errs = append(errs, kueuejson.Prefixed("eligibility: preemption.withinClusterQueueConfig: ", err))
		if b != nil {
			out.WithinClusterQueueConfig = &KueueWithinClusterQueueConfig{}
			if raw, ok := b["minAdmitDuration"]; ok {
				var derr error
				if out.WithinClusterQueueConfig.MinAdmitDuration, derr = kueuejson.Duration(raw); derr != nil {
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
