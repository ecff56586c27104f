package eligibility

import (
	"errors"
	"time"
)

// Kueue's reasons for a preemption within a ClusterQueue: the reason of the
// preempted Workload's Preempted condition and the reason label of
// Kueue's kueue_preempted_workloads_total metric. They are Kueue's spelling,
// not tenure [Reason] labels; [CandidateClass.KueueReason] picks one.
const (
	// KueueReasonInClusterQueue is Kueue's reason for a preemption by
	// priority within a ClusterQueue (kubernetes-sigs/kueue
	// apis/kueue/v1beta2: InClusterQueueReason): a lower-priority or newer
	// equal-priority pick.
	KueueReasonInClusterQueue = "InClusterQueue"
	// KueueReasonInClusterQueueTimeBased is KEP-8522's reason for a
	// time-based pick: an equal-priority job that held its quota longer than
	// minAdmitDuration.
	KueueReasonInClusterQueueTimeBased = "InClusterQueueTimeBased"
)

// KueueReason returns the reason Kueue reports when it preempts a candidate
// of class c within its ClusterQueue: [KueueReasonInClusterQueueTimeBased]
// for [ClassExpired], [KueueReasonInClusterQueue] for [ClassLowerPriority]
// and [ClassNewer], and "" for the classes that are not preemptible.
func (c CandidateClass) KueueReason() string {
	switch c {
	case ClassExpired:
		return KueueReasonInClusterQueueTimeBased
	case ClassLowerPriority, ClassNewer:
		return KueueReasonInClusterQueue
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
// Unlike the flat [PreemptionConfig], it keeps whether the
// withinClusterQueueConfig block is present, so that
// [KueueWithinClusterQueue.PreemptionConfig] can apply rule 3 of the KEP's "Webhook
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

// PreemptionConfig converts k to a validated [PreemptionConfig], applying the KEP's
// webhook validation and reporting every problem at once (each message
// starts with "eligibility: "):
//
//  1. minAdmitDuration must be at least [MinAdmitDurationFloor] (1m);
//     0 and negatives are rejected;
//  2. a withinClusterQueueConfig block without minAdmitDuration is valid
//     and has no effect;
//  3. the block is only valid with LowerOrNewerEqualPriority: present with
//     Never (the default) or LowerPriority it is an error, even empty.
//
// A policy other than the three names, spelt exactly (Kueue's API enum is
// case-sensitive; "Any" is valid only for cohort preemption), is an error
// too. On error the returned config is the zero value.
func (k KueueWithinClusterQueue) PreemptionConfig() (PreemptionConfig, error) {
	var errs []error
	var c PreemptionConfig
	switch k.WithinClusterQueue {
	case "", "Never":
		c.Policy = PreemptionNever
	case "LowerPriority":
		c.Policy = PreemptionLowerPriority
	case "LowerOrNewerEqualPriority":
		c.Policy = PreemptionLowerOrNewerEqualPriority
	default:
		errs = append(errs, keyErrorf("withinClusterQueue", "eligibility: withinClusterQueue: unsupported value %q (want Never, LowerPriority or LowerOrNewerEqualPriority)", k.WithinClusterQueue))
	}
	if b := k.WithinClusterQueueConfig; b != nil {
		if m := b.MinAdmitDuration; m != nil {
			if *m < MinAdmitDurationFloor {
				errs = append(errs, keyErrorf("withinClusterQueueConfig.minAdmitDuration", "eligibility: withinClusterQueueConfig.minAdmitDuration must be at least %v, got %v", MinAdmitDurationFloor, *m))
			}
			d := *m
			c.MinAdmitDuration = &d
		}
		// KEP-8522 webhook validation rule 3 (an unknown policy is reported above instead).
		if knownWithinPolicy(k.WithinClusterQueue) && c.Policy != PreemptionLowerOrNewerEqualPriority {
			errs = append(errs, keyErrorf("withinClusterQueueConfig", "eligibility: withinClusterQueueConfig is only valid with withinClusterQueue %v, not %v",
				PreemptionLowerOrNewerEqualPriority, c.Policy))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return PreemptionConfig{}, err
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
// unknown policy converts to its String form ("PreemptionPolicy(N)"), which
// [KueueWithinClusterQueue.PreemptionConfig] rejects. TimestampPreemptionBuffer is
// not carried: in Kueue it is a feature gate of the whole scheduler, not a
// ClusterQueue field.
func (c PreemptionConfig) Kueue() KueueWithinClusterQueue {
	k := KueueWithinClusterQueue{WithinClusterQueue: c.Policy.String()}
	if m := c.MinAdmitDuration; m != nil {
		d := *m
		k.WithinClusterQueueConfig = &KueueWithinClusterQueueConfig{MinAdmitDuration: &d}
	}
	return k
}
