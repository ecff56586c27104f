package requeue

// Model is the embedder's side of an [Engine] pass: the scheduler state the
// engine changes virtually while it looks for a victim whose eviction lets a
// higher-priority contender run. cluster.Model is tenure's in-memory reference
// implementation; a scheduler adapts its own session or snapshot instead.
//
// Jobs are named by the same IDs the engine's nominations, [Victim] and
// [Contender] values use.
//
// Both methods receive the engine's [Journal] and must record, in it, an undo
// step for every change they make (after making it), so that
// [Journal.Rollback] restores the state exactly. The engine takes a
// checkpoint before each attempt and either keeps the changes
// ([Journal.Commit]) or rolls them back; a method that returns false or an
// error may therefore leave recorded partial changes behind. Undo steps must
// be infallible; state that is not recorded is not restored.
//
// The engine calls the methods from one goroutine, one at a time. Their cost
// is the embedder's; cluster.Model's is stated on its methods.
type Model interface {
	// Evict virtually evicts a running job: releases every resource its
	// tasks hold, recording the undo steps in j. An error means the job
	// cannot be evicted (unknown to the model, not running, or any embedder
	// failure): the engine rolls the attempt back and reports the victim as
	// skipped with [ReasonEvictError], and the pass continues.
	Evict(j *Journal, job string) error

	// Place tries to place a pending job as a gang: all the tasks it
	// requires, or none. It returns true if the job now runs (its
	// placement recorded in j) and false if it does not fit. The answer
	// depends on the model's state alone: in one state, Place of a job
	// answers alike every time (the engine takes one failed attempt as the
	// answer for that state), so a cache of earlier answers must be part
	// of the state the journal restores. An error means
	// the job cannot be considered (unknown to the model, already running,
	// invalid): the engine rolls the attempt back, does not try that
	// contender again in the pass, and lists it in
	// [EngineResult.ContenderErrors].
	Place(j *Journal, job string) (bool, error)
}
