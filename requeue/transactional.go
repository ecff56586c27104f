package requeue

// Transactional is an optional interface of a Model that keeps its own
// transactions, such as an adapter over KAI-Scheduler's or Volcano's
// Statement. The engine takes a savepoint at the start of a pass, before
// each eviction and placement attempt and after each commit, and records
// the rollback to it as an undo step of its journal: a model may keep some
// changes in its transactions and record others in the journal, and one
// rollback undoes both in reverse order. If Rollback panics or fails while
// the engine restores the model after a panic, Run panics with a
// [*RestoreError]. ExampleTransactional shows a Statement-like model.
//
// Contract: a mark is valid from Savepoint until a rollback to an older
// mark. Rollback of a valid mark restores its state exactly, keeping it and
// older marks valid; any other value Rollback refuses with an error,
// changing nothing, or restores exactly the state it names. A bare log
// length is not enough (after a rollback and new operations it names
// another state); a never-repeating counter plus a stack of valid marks
// is. requeuetest.TestModel checks this. The engine rolls back only to
// valid marks, from one goroutine.
type Transactional interface {
	Model
	// Savepoint marks the model's current state with an opaque value
	// chosen by the model (for example a Statement's checkpoint index).
	Savepoint() uint64
	// Rollback restores the state marked by sp.
	Rollback(sp uint64) error
}
