package requeue

// Model is the embedder's side of an Engine pass: the scheduler state the
// engine changes virtually. Jobs are named by the IDs of the nominations,
// Victims and Contenders. Both methods record in the engine's Journal an
// undo step for every change they make, after making it, so that
// Journal.Rollback restores the state exactly; a method that returns false
// or an error may leave recorded partial changes. Undo steps must be
// infallible. The engine calls the methods from one goroutine, one at a
// time.
type Model interface {
	// Evict virtually evicts a running job, releasing every resource its
	// tasks hold. An error (unknown job, not running, any failure) skips the
	// victim with [ReasonEvictError]; the pass goes on.
	Evict(j *Journal, job string) error

	// Place tries to place a pending job as a gang, all its required tasks or
	// none: true if it now runs, false if it does not fit. In one state it
	// answers alike every time (the engine trusts one failed attempt per
	// state), so a cache of answers is part of the state. An error (unknown,
	// running, invalid) lists the contender in
	// [EngineResult.ContenderProblems] and ends its tries in the pass.
	Place(j *Journal, job string) (bool, error)
}
