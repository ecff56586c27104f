package requeue

// Transactional is an optional interface of a [Model] that keeps its own
// transactions, such as an adapter over KAI-Scheduler's or Volcano's
// Statement (both already offer checkpoint and rollback). When the engine's
// Model implements Transactional, the engine marks and restores the model's
// state with these methods: Evict and Place still receive a [Journal],
// which such a model may ignore. The engine takes a savepoint at the start
// of a pass, before each eviction and placement attempt, and after each
// commit, and records the rollback to it as an undo step of its journal at
// that point. A model may thus keep some changes in its own transactions
// and record others as undo steps (say, evictions through a journaled
// helper, placements in its Statement): one rollback of the journal undoes
// them all in the reverse order they were made, the model's rollbacks
// interleaved with its undo steps; within one Evict or Place call, the
// steps it recorded are undone before the rollback to the savepoint taken
// before the call. On a panic in a callback the engine rolls back to the
// last commit. If Rollback itself panics or fails there, or in a rollback
// the panic interrupted, Run panics with a [*RestoreError]: the engine
// cannot know what the model's half-done rollback left, so the model then
// promises nothing, its own invariants included, and must be rebuilt.
// ExampleTransactional shows a small Statement-like model.
//
// Contract. Savepoint returns a mark of the current state. A mark is valid
// from when Savepoint returns it until a rollback to a mark taken before
// it. Rollback(sp) of a valid mark restores the state exactly as it was
// when sp was taken; sp and the marks taken before it stay valid, and the
// marks taken after it are invalid. Any other value (one Savepoint never
// returned, or an invalidated mark) Rollback either refuses with an error,
// changing nothing, or, if the value still names a state of the model's
// current history, restores exactly that state.
//
// The simplest scheme is a counter that never repeats plus a stack of
// marks: number the marks with the counter, keep the valid ones on the
// stack (Rollback(sp) pops those above sp), and refuse every value that is
// not on it. A mark that is only a log length,
// as a Statement's checkpoint index is, is not enough on its own: after a
// rollback and new operations, the same length names a different state.
//
// requeuetest.TestModel checks this: rollbacks to valid marks, nested in
// any order; a rollback to an invalidated mark either refused without a
// change or restoring exactly the state it marked; a refused rollback to a
// value never returned changing nothing. With requeuetest.Options.StrictSavepoints
// it demands that every value other than a valid mark be refused.
//
// The engine rolls back only to valid marks, and never needs to release
// one: it rolls back to a mark or stops using it. The methods are called
// from one goroutine, one at a time.
type Transactional interface {
	Model
	// Savepoint marks the model's current state with an opaque value
	// chosen by the model (for example a Statement's checkpoint index).
	Savepoint() uint64
	// Rollback restores the state marked by sp.
	Rollback(sp uint64) error
}
