package requeue

import (
	"errors"
	"fmt"
)

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
	if err := e.tx.Rollback(uint64(sp)); err != nil && e.txErr == nil {
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
	e.undoing = true // left set if a step panics
	err := e.j.Rollback(m.cp)
	e.undoing = false
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
	var sp uint64
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
		e.stop = reasonModelError
	}
}

// errUndoPanicked is the restore failure when the panic came from an undo
// step (or the model's Rollback) of a rollback the engine was running.
var errUndoPanicked = errors.New("requeue: the panic came from an undo step or the model's Rollback during a rollback, so what that step should have undone stays")

// restoreAfterPanic returns the model to its state at the last commit,
// while a panic with value r unwinds Run, and returns the value the panic
// goes on with: r if the model was restored, a *RestoreError if not. A
// panicking undo step is dropped by the journal and the rollback goes on
// with the older steps, so the restore does what it can. Either way the
// engine gets a fresh journal and is ready for the next pass.
func (e *Engine) restoreAfterPanic(r any) any {
	var failed []error
	if e.undoing {
		failed = append(failed, errUndoPanicked)
	}
	e.undoing = false
	if e.model != nil {
		// Each round either finishes or drops the step that panicked.
		for rounds := e.j.len() + 1; rounds > 0; rounds-- {
			p, panicked, err := e.tryUndo(e.base)
			if !panicked {
				if err != nil {
					failed = append(failed, err)
				}
				break
			}
			failed = append(failed, panicError("an undo step or the model's Rollback panicked during the restore", p))
		}
	}
	e.j = new(Journal)
	e.endPass()
	if len(failed) == 0 || r == nil { // r is nil only for runtime.Goexit
		return r
	}
	return &RestoreError{Panic: r, Restore: errors.Join(failed...)}
}

// tryUndo runs undo(m) and recovers a panic.
func (e *Engine) tryUndo(m mark) (p any, panicked bool, err error) {
	defer func() {
		if panicked {
			p = recover()
			e.undoing = false
		}
	}()
	panicked = true
	err = e.undo(m)
	panicked = false
	return nil, false, err
}

// panicError describes a panic as an error, wrapping the value if it is
// one.
func panicError(what string, p any) error {
	if err, ok := p.(error); ok {
		return fmt.Errorf("requeue: %s: %w", what, err)
	}
	return fmt.Errorf("requeue: %s: %v", what, p)
}
