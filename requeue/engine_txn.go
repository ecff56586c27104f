package requeue

import "fmt"

// mark is a point the engine can return to: a journal checkpoint, the
// model's own savepoint when it is [Transactional], and the engine's name
// for the model state at that point (see Engine.state).
type mark struct {
	cp    Checkpoint
	sp    Savepoint
	state uint64
}

// save marks the current state.
func (e *Engine) save() mark {
	m := mark{cp: e.j.Checkpoint(), state: e.state}
	if e.tx != nil {
		m.sp = e.tx.Savepoint()
	}
	return m
}

// undo returns the model to m: the journal's steps recorded since m run
// first (newest first), then a Transactional model rolls back to its
// savepoint. A failure means the model broke its contract; the engine
// remembers the first one and stops the pass (its state is unreliable).
func (e *Engine) undo(m mark) {
	e.state = m.state
	if err := e.j.Rollback(m.cp); err != nil {
		e.broken(fmt.Errorf("requeue: the model broke the journal contract (committed or rolled back the engine's journal): %w", err))
	}
	if e.tx != nil {
		if err := e.tx.Rollback(m.sp); err != nil {
			e.broken(fmt.Errorf("requeue: the model's Rollback failed: %w", err))
		}
	}
}

// commit keeps every change since the last commit and makes the current
// state the one a panic restores. The model's savepoint is taken first: if
// Savepoint panics, nothing is committed yet.
func (e *Engine) commit() {
	var sp Savepoint
	if e.tx != nil {
		sp = e.tx.Savepoint()
	}
	if err := e.j.Commit(); err != nil {
		e.broken(fmt.Errorf("requeue: the engine's journal refused a commit: %w", err))
	}
	e.base = mark{cp: e.j.Checkpoint(), sp: sp, state: e.state}
}

// broken records that the model broke its contract: the pass stops.
func (e *Engine) broken(err error) {
	if e.err == nil {
		e.err = err
	}
	if e.stop == "" {
		e.stop = ReasonModelError
	}
}

// restoreAfterPanic returns the model to its state at the last commit. It
// runs while a panic unwinds Run; a second panic while restoring is dropped
// (the first one continues) and leaves the model as the restore left it.
// Either way the engine gets a fresh journal: a journal whose undo step
// panicked may be unusable.
func (e *Engine) restoreAfterPanic() {
	defer func() {
		_ = recover()
		e.j = new(Journal)
		e.endPass()
	}()
	if e.model != nil {
		e.undo(e.base)
	}
}
