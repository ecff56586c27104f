// Package preemptordelay is a preemptor-side delay: a pending job (a
// contender) may cause evictions (preempt, reclaim, consolidation; never
// plain allocation into free capacity, and never its own evictability)
// only once its delay has passed.
//
// It follows KAI-Scheduler's per-job preemption delay (v0.17.0, PR #1832:
// PodGroup spec.preemptionDelay, filled by the pod grouper from the
// kai.scheduler/preemption-delay key found first on the owners, then on
// the pod; pkg/scheduler/api/podgroup_info/job_info.go PreemptionDelayEnd
// and pkg/scheduler/actions/utils/input_jobs.go): a duration, 0 meaning
// none, counted from the later of the job's creation and its last
// eviction (the kai.scheduler/last-eviction-timestamp annotation), so that
// every eviction re-arms it; denied while now is before the end, as KAI's
// now.Before(end), with the end as Until. The embedder puts the job's
// value (spec.preemptionDelay, or the annotation) in
// Contender.Annotations under [Delay.Key], and its creation and last
// eviction in Queued and LastEvicted. [Delay.Delay] is the default for a
// contender without its own.
//
// Where it differs from KAI-Scheduler, deliberately: a value is read in
// runtime.ParseDuration's grammar ("1d" works; "-0s" does not), and a
// value that does not parse denies the contender, fail closed, with no
// Until (KAI's pod grouper logs it and tries the next object, and without
// a valid value the job has no delay); an unknown creation time denies
// under a delay.
//
// Reasons (stable metric labels): denied "preemptor_delay"
// ([ReasonDelayed], KAI's PreemptionDelayNotElapsed), "queued_unknown"
// ([ReasonQueuedUnknown]) and "invalid_preemption_delay"; allowed
// "no_preemptor_delay" and "preemptor_waited". Code branches on Allowed;
// the allowed reasons are labels only, for metrics and logs.
package preemptordelay
