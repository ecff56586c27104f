// Package eligibility decides about one job or one scenario at one instant:
// whether a victim may be evicted now (min-runtime), whether an eviction
// scenario keeps protected elastic jobs above their minimum, whether a running
// job has overrun its expected runtime and should be nominated for requeue, and
// whether an equal-priority job may preempt another (time-based preemption).
//
// # Min-runtime victim filter
//
// (section owned by the min-runtime filter)
//
// # Elastic scenario validator
//
// (section owned by the validator)
//
// # Expected-runtime nominator
//
// (section owned by the nominator)
//
// # Time-based same-priority preemption
//
// (section owned by the preemption policy)
package eligibility
