// Package admitprotect is Kueue's KEP-9876 preemption protection
// (keps/9876-cross-cq-guaranteed-runtime; kubernetes-sigs/kueue PRs #12791
// and #12996): a job admitted less than minAdmitDuration ago is no victim
// of a fair-sharing or reclaim preemption across the ClusterQueues of a
// cohort. Preemption within a ClusterQueue is package timebased's.
//
// [Protection.Check] protects while now − admitted < d (preemptible at
// exactly d, the opposite boundary of KEP-8522's rule); an evicted or
// unadmitted job is never protected. A denial's Until is the protection
// expiry, admitted + d: the instant Kueue's implementation retries the
// preemptor, as nothing else would (its ProtectionSkipTracker keeps the
// earliest expiry of the skipped candidates; tenure's Cycle.Wake carries
// it). O(1), no allocation. The zero
// [Protection] protects nothing. It reads Kueue's preemptionProtection
// block ([Protection.UnmarshalJSON]); tenure does not write it.
//
// Reasons (stable metric labels): denied "min_admit_protected"
// ([ReasonMinAdmitProtected]); allowed "no_min_admit", "already_evicted",
// "not_admitted" and "min_admit_elapsed". Code branches on Allowed; the
// allowed reasons are labels only, for metrics and logs.
package admitprotect
