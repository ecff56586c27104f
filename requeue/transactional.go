package requeue

// Transactional is an optional interface of a [Model] that keeps its own
// transactions, such as an adapter over KAI-Scheduler's or Volcano's
// Statement (both already offer checkpoint and rollback). When the engine's
// Model implements Transactional, the engine marks and restores the model's
// state with these methods instead of the [Journal]: Evict and Place still
// receive a Journal, which such a model may ignore (any undo steps it does
// record there are run as well, before Rollback). The engine takes a
// savepoint at the start of a pass, before each eviction and placement
// attempt, and after each commit; on a panic in a callback it rolls back to
// the savepoint of the last commit. ExampleTransactional shows a small
// Statement-like model.
//
// Contract: Savepoint returns a mark of the current state; Rollback restores
// the state exactly as it was when sp was taken and invalidates the marks
// taken after it (sp itself stays valid). Rollback returns an error for a
// mark it never issued or that a previous rollback invalidated, and then
// changes nothing (a mark that is only a log length cannot tell those apart:
// add a generation counter). requeuetest.TestModel checks all of this. The engine never needs to release a mark: it rolls back
// to a mark or stops using it. The methods are called from one goroutine,
// one at a time.
type Transactional interface {
	Model
	// Savepoint marks the model's current state.
	Savepoint() Savepoint
	// Rollback restores the state marked by sp.
	Rollback(sp Savepoint) error
}

// Savepoint is an opaque mark of a [Transactional] model's state, chosen by
// the model (for example a Statement's checkpoint index).
type Savepoint uint64
