package requeue

import "fmt"

// mark is a point the engine can return to: a journal checkpoint, and the
// engine's name for the model state at that point (see Engine.state).
//
// With a [Transactional] model, the model's savepoint lives in the journal
// too: save takes the savepoint and records, right after the checkpoint, an
// undo step that rolls the model back to it. One journal rollback then
// undoes every change in the reverse order it was made, wherever the model
// keeps it: the undo steps it recorded, and its own transactions at each
// savepoint, interleaved.
type mark struct {
	cp    Checkpoint
	state uint64
}

// save marks the current state. The savepoint is taken before anything is
// recorded: if Savepoint panics, the journal is as it was.
func (e *Engine) save() mark {
	m := mark{cp: e.j.Checkpoint(), state: e.state}
	if e.tx != nil {
		sp := e.tx.Savepoint()
		e.j.RecordUndoer((*txRollback)(e), int64(sp), 0)
	}
	return m
}

// txRollback is the undo step that rolls a Transactional model back to a
// savepoint (the step's first integer). Undo steps cannot fail: it keeps
// the first error for undo to report.
type txRollback Engine

func (u *txRollback) Undo(sp, _ int64) {
	e := (*Engine)(u)
	if err := e.tx.Rollback(Savepoint(sp)); err != nil && e.txErr == nil {
		e.txErr = err
	}
}

// undo returns the model to m: the journal's steps recorded since m run,
// newest first, the model's rollbacks to its savepoints among them. A
// failure means the model broke its contract; the engine remembers the
// first one and stops the pass (its state is unreliable). undo returns the
// failure, if any.
func (e *Engine) undo(m mark) error {
	e.state = m.state
	e.txErr = nil
	err := e.j.Rollback(m.cp)
	if err != nil {
		err = fmt.Errorf("requeue: the model broke the journal contract (committed or rolled back the engine's journal): %w", err)
	} else if e.txErr != nil {
		err = fmt.Errorf("requeue: the model's Rollback failed: %w", e.txErr)
	}
	e.txErr = nil
	if err != nil {
		e.broken(err)
	}
	return err
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
	e.base = mark{cp: e.j.Checkpoint(), state: e.state}
	if e.tx != nil {
		e.j.RecordUndoer((*txRollback)(e), int64(sp), 0)
	}
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
