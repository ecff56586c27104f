// Package admitprotect is Kueue's KEP-9876 preemption protection
// (keps/9876-cross-cq-guaranteed-runtime, provisional; kubernetes-sigs/kueue
// PRs #12791 and #12996): a job admitted less than minAdmitDuration ago is
// no victim of a fair-sharing ([InCohortFairSharing]) or reclaim
// ([InCohortReclamation], [InCohortReclaimWhileBorrowing]) preemption
// across the ClusterQueues of a cohort. Preemption within the preemptor's
// own ClusterQueue ([InClusterQueue]) is not its business: package
// timebased decides that.
//
// [Protection.Check] decides about one victim: it is protected while
// now − admitted < d and preemptible at exactly d (the opposite boundary of
// KEP-8522's time-based rule), timed from the Admitted condition, never
// when already evicted or not admitted; Until = admitted + d is when the
// preemptor should be retried. O(1), no allocation. The zero [Protection]
// protects nothing, as Kueue without the block.
//
// [KueuePreemptionProtection] is Kueue's preemptionProtection block as
// JSON, in Kueue's key spelling; [KueuePreemptionProtection.Protection]
// validates and converts it, [Protection.Kueue] converts back.
package admitprotect
