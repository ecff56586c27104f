package requeue

// Shaper is an optional interface of a [Model] that can tell which pending
// jobs are interchangeable for placement. When the engine's Model implements
// it, a contender that did not fit in some state of the pass is taken as the
// answer for every contender of the same shape in that same state: the
// engine does not call [Model.Place] for them until the state changes. With
// many pending jobs of few shapes (the common case: a handful of GPU counts),
// this is what keeps a pass linear in the number of contenders.
//
// Contract: Shape returns a key and true for a pending job the model can
// place; two jobs with equal keys must be placed alike, so that in any state
// [Model.Place] returns (false, nil) for one exactly when it does for the
// other, and [FitBounder.MayFit] gives both the same answer. It returns ok
// false for a job it cannot vouch for (unknown, already running): the engine
// then treats the job as its own shape. The engine calls Shape once per
// contender per pass, before any other model method; the key may be any
// string (the engine compares keys, it does not parse them). cluster.Model's
// key encodes the gang minimum and the task requests.
type Shaper interface {
	Shape(job string) (key string, ok bool)
}

// FitBounder is an optional interface of a [Model] that offers a cheap,
// conservative fit test. MayFit sets fits[i] to false only when jobs[i]
// certainly does not fit in the model's current state after evicting the
// running job victim (victim "" means no eviction), so that [Model.Place]
// would return (false, nil); true promises nothing. A set search asks,
// before each eviction, whether the contender may fit once that victim is
// gone from the current state (which holds the set's earlier evictions),
// and makes no placement attempt on false; a placement without eviction
// asks with victim "". With the reference cluster.Model, whose bound
// compares free totals and per-node maxima, most hopeless attempts of a
// large pass never reach Place.
//
// Contract: MayFit must not change the state; it must set a true for a job
// or victim it does not know (the engine learns of errors from Place and
// Evict); len(fits) == len(jobs), and it must not keep the slices. It
// should cost O(len(jobs)) or close: the engine calls it once per eviction
// of a set search and once per placement attempt without eviction.
type FitBounder interface {
	MayFit(victim string, jobs []string, fits []bool)
}

// Localizer is an optional interface of a [Model] that tells where a running
// job holds resources, so that the engine looks for sets of victims whose
// evictions can combine into room for one contender among victims that
// share a domain (a node, a rack), instead of among all of them. The engine
// knows nothing of topology: it only groups victims by the keys Domains
// returns. cluster.Model's keys are node names.
//
// Domains appends to dst the keys of the domains where the running job
// holds resources and returns dst; it appends nothing for an unknown job or
// one that is not running.
//
// Contract the engine relies on: Domains is state-free (it does not change
// the model) and deterministic: in one state it returns the same keys for
// a job whatever was asked before, in the same order; the keys are
// distinct (the conformance kit checks both), and their order does not
// change the search. The engine calls it once per open victim near the start of
// a pass, after the placements without eviction that open the pass (so
// the model's state then holds those placements, but no eviction), and
// keeps neither dst nor the returned slice: it copies the keys out and
// never writes to the returned slice, so Domains may return storage of
// its own instead of appending to dst. It should cost O(domains of the
// job) and allocate nothing once dst has room. The
// hint only steers the search: a wrong answer costs the engine sets it
// could have found, never a wrong eviction (every set is checked by
// evicting it and placing the contender), and a model without it is
// searched as one domain, correctly and within the same bounds.
type Localizer interface {
	Domains(job string, dst []string) []string
}

// SetFitBounder is an optional interface of a [Model] that offers a cheap,
// conservative fit test for a whole set of evictions: before a set search
// evicts a group of victims one by one for a contender, it asks whether
// evicting any of them could let the contender fit, and on false settles
// the group at once, without an eviction or a placement attempt. Where
// [FitBounder] rules out one eviction at a time, this rules out a group:
// it is what keeps a contender that fits nowhere (too large for any
// domain) from costing a pass an eviction of every victim its search
// looks at.
//
// MayFitAfter returns false only when the pending job does not fit in the
// model's current state after evicting any subset of the running jobs
// victims, the empty one included: for every such subset, evicting its
// jobs and then calling [Model.Place] for job would return (false, nil).
// True promises nothing.
//
// Contract: MayFitAfter must not change the state; it must return true
// when job is unknown or not pending, or when any of victims is unknown
// or not running (the engine learns of errors from Evict and Place); it
// must not keep the slice. The engine calls it at most once per victim
// accumulation of a set search (a group, or the groups taken together),
// with the victims the contender may use, before evicting any. It should
// cost O(len(victims)) or close (the engine counts one examination per
// call). A bound that is monotone in the victims (evicting more can only
// help) meets the contract when it is sound for the whole set; cluster.Model's
// is: it compares the free total and the room on the victims' nodes with
// the contender's needs, as its MayFit does for one victim.
//
// When it rules a group out, the engine neither evicts its victims nor
// tries the contender: no Evict error is met there (an evictable victim
// counts as examined, kept with [ReasonNoFit] if no later set uses it),
// and the observer gets one [ReasonRolledBack] event for the group (Job
// its last victim) instead of one per fit test.
type SetFitBounder interface {
	MayFitAfter(victims []string, job string) bool
}

// CapacityBounder is an optional interface of a [Model] that can tell a
// pending job no eviction can help: one that would not fit even if every
// running job were evicted (a task larger than any node, a gang larger
// than the cluster). It is tenure's counterpart of kube-scheduler's
// default preemption skipping the nodes where the preemptor's failure is
// unschedulable and unresolvable (nodesWherePreemptionMightHelp in
// pkg/scheduler/framework/preemption), taken to the whole model, since
// the engine knows no nodes.
//
// MayEverFit returns false only when, for every set of running jobs
// (the empty one and the set of all of them included), evicting that set
// and then calling [Model.Place] for job would return (false, nil). True
// promises nothing.
//
// Contract: MayEverFit must not change the state; it must return true for
// a job that is unknown or running (the engine learns of errors from
// Place); its answer for a pending job must not change while the pass
// runs (it may depend on the model's capacity, not on what runs). It
// should cost O(1) or O(tasks of the job): the engine asks it once per
// contender and pass, before anything else about that contender but its
// [Shaper.Shape], and counts one examination.
//
// When it says false, the engine makes no placement attempt for the
// contender and asks the model no other fit question about it: its
// search still walks the groups it would walk (so every victim it may use
// is examined and ends as it would without the hint, with [ReasonNoFit]
// if nothing else uses it), but settles every accumulation at once, as a
// [SetFitBounder] that answered false would. The one call it still makes
// is an Evict (rolled back) of each victim not yet evicted in the pass,
// so that an Evict error is met where a search that evicts would meet it:
// at most one per victim and pass. (A model with a [SetFitBounder] that
// would have answered false makes the search without this hint evict
// nothing, so with both hints an Evict that fails for a running victim
// can end it with [ReasonEvictError] where the set bound alone keeps it
// with [ReasonNoFit].) The failures of a ruled-out contender's search are
// never charged to the victims' shares ([EngineConfig.MaxAttemptsPerVictim]),
// even when a bound cut its search short. A contender is not a victim: it
// gets no outcome, and stays pending.
type CapacityBounder interface {
	MayEverFit(job string) bool
}
