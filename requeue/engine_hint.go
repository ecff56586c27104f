package requeue

// Shaper is an optional interface of a Model that tells which pending jobs
// are interchangeable for placement: a contender that did not fit in a
// state stands for every contender of its shape in that state, so the
// engine does not call Place for them until the state changes. With many
// pending jobs of few shapes, this keeps a pass linear in the contenders.
//
// Contract: Shape returns a key and true for a pending job; in any state
// Place returns (false, nil) for one of two jobs with equal keys exactly
// when it does for the other, and MayFit answers both alike. ok is false
// for a job it cannot vouch for (unknown, running), which is then its own
// shape. Called once per contender and pass; keys are compared, not
// parsed.
type Shaper interface {
	Shape(job string) (key string, ok bool)
}

// FitBounder is an optional interface of a Model that offers a cheap,
// conservative fit test. MayFit sets fits[i] to false only when Place of
// jobs[i] would return (false, nil) in the current state after evicting
// the running job victim ("" for none); true promises nothing. A search
// asks it before each eviction and makes no attempt on false.
//
// Contract: it changes no state, sets true for an unknown job or victim,
// gets len(fits) == len(jobs) and keeps neither slice. Cost: O(len(jobs))
// or close, once per eviction of a search and per attempt without
// eviction.
type FitBounder interface {
	MayFit(victim string, jobs []string, fits []bool)
}

// Localizer is an optional interface of a Model that tells where a running
// job holds resources, so the engine looks for sets of victims among those
// that share a domain (a node, a rack) instead of among all of them.
//
// Domains appends to dst the keys of the job's domains and returns dst,
// appending nothing for an unknown or pending job. Contract: it changes no
// state; in one state it returns the same distinct keys for a job, in the
// same order; the engine keeps neither slice. A domain is any unit only
// its jobs can free. Cost: O(domains of the job), no allocation once dst
// has room; called once per open victim near the start of a pass. A wrong
// answer costs sets the engine could have found, never a wrong eviction;
// without the hint all victims form one domain.
type Localizer interface {
	Domains(job string, dst []string) []string
}

// SetFitBounder is an optional interface of a Model that offers a cheap,
// conservative fit test for a whole group: before a search evicts a
// group's victims, it asks whether evicting any subset of them could let
// the contender fit, and on false settles the group without an eviction
// or attempt. It keeps a contender too large for any domain from costing
// an eviction of every victim.
//
// MayFitAfter returns false only when, for every subset of victims (the
// empty one included), evicting it and calling Place for job would return
// (false, nil); true promises nothing. Contract: it changes no state,
// returns true when job is unknown or not pending or any victim is unknown
// or not running, and keeps no slice. A bound monotone in the victims
// meets it when sound for the whole set. Cost: O(len(victims)) or close,
// at most once per accumulation.
type SetFitBounder interface {
	MayFitAfter(victims []string, job string) bool
}

// CapacityBounder is an optional interface of a Model that tells a
// pending job no eviction can help (a task larger than any node, a gang
// larger than the cluster), as kube-scheduler skips the nodes where
// preemption cannot help (nodesWherePreemptionMightHelp in
// pkg/scheduler/framework/preemption), taken to the whole model.
//
// MayEverFit returns false only when, for every set of running jobs (empty
// and all included), evicting it and calling Place for job would return
// (false, nil); true promises nothing. Contract: it changes no state,
// returns true for an unknown or running job, and its answer for a pending
// job holds for the whole pass. Cost: O(1) or O(job tasks); asked once per
// contender and pass. On false the engine makes no placement attempt for
// the contender; its search still examines the victims (evicting each at
// most once per pass, rolled back, to meet Evict errors), which end as
// they would without the hint.
type CapacityBounder interface {
	MayEverFit(job string) bool
}
