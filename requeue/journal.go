package requeue

import "errors"

// ErrInvalidCheckpoint is returned by [Journal.Rollback] for a checkpoint
// it cannot roll back to: one taken on another journal, the zero
// Checkpoint, one taken before a [Journal.Commit], or one at a position a
// rollback has since undone (even if the log has grown past it again).
var ErrInvalidCheckpoint = errors.New("requeue: invalid checkpoint")

// errRollingBack is returned by [Journal.Rollback] and [Journal.Commit] when
// they are called while a rollback of the same journal runs, that is, from
// one of its undo steps. The call changes nothing; the running rollback
// goes on.
var errRollingBack = errors.New("requeue: journal is rolling back")

// JournalUndoer is an allocation-free undo step: the state it undoes
// (typically the model) plus two integers that name the step.
// [Journal.RecordUndoer] stores them inline, where a capturing closure
// given to [Journal.Record] allocates. Undo must not fail and should not
// panic (see [Journal]).
type JournalUndoer interface {
	Undo(a, b int64)
}

// Journal is an undo log for transactional, in-memory state changes. Every
// reversible operation records an undo step after it mutates the state;
// [Journal.Checkpoint] marks a position, [Journal.Rollback] runs the steps
// recorded since a checkpoint, newest first, and forgets them, and
// [Journal.Commit] forgets the whole log, keeping the changes.
//
// A rollback keeps valid every checkpoint at its position or before and
// makes stale those after it; rolling back to one checkpoint twice is
// allowed. Costs: Checkpoint O(1), no allocation; Rollback and Commit O(k)
// for k steps; Record amortised O(1).
//
// An undo step that panics reaches Rollback's caller, and the journal stays
// consistent: the newer steps were undone and forgotten, the panicking one
// is forgotten and not run again, the older ones remain (so a later
// Rollback finishes the job), and recording works again. While a rollback
// runs, steps recorded on the same journal are ignored, and Rollback and
// Commit are refused with an error ("requeue: journal is rolling back").
//
// The zero Journal is empty and ready to use. A Journal belongs to one
// goroutine. A nil *Journal ignores Record calls, so state operations can
// take an optional journal.
type Journal struct {
	log []journalStep
	// clock numbers every step and every commit; it never goes back, so a
	// serial identifies one recorded step (or one empty log) for the
	// journal's whole life.
	clock uint64
	// base is the serial of the empty log since the last Commit.
	base uint64
	// rolling is set while Rollback runs its steps, and cleared when it
	// returns or panics.
	rolling bool
}

type journalStep struct {
	fn     func()
	u      JournalUndoer
	a, b   int64
	serial uint64
}

// Checkpoint is a position in a [Journal]'s log, returned by
// [Journal.Checkpoint] and consumed by [Journal.Rollback]. It is a small
// value: copy it freely. The zero Checkpoint belongs to no journal.
type Checkpoint struct {
	j *Journal
	// pos is the log length when the checkpoint was taken; mark is the serial
	// of the step just before pos (or of the empty log), so a log that was
	// rolled back past pos and grew again is recognised as different history.
	pos  int
	mark uint64
}

// Checkpoint returns the current position of the log. O(1), no allocation.
// On a nil journal it returns the zero Checkpoint.
func (j *Journal) Checkpoint() Checkpoint {
	if j == nil {
		return Checkpoint{}
	}
	return Checkpoint{j: j, pos: len(j.log), mark: j.markAt(len(j.log))}
}

func (j *Journal) markAt(pos int) uint64 {
	if pos == 0 {
		return j.base
	}
	return j.log[pos-1].serial
}

// Record appends an undo step. undo must not fail and should not panic (see
// [Journal] for what happens if it does); it runs at most once, during a
// [Journal.Rollback] past this point. A nil undo, a nil journal, and a step
// recorded while a rollback is running are ignored.
// Amortised O(1); the closure itself may allocate (see [JournalUndoer]).
func (j *Journal) Record(undo func()) {
	if j == nil || undo == nil || j.rolling {
		return
	}
	j.clock++
	j.log = append(j.log, journalStep{fn: undo, serial: j.clock})
}

// RecordUndoer appends the undo step u.Undo(a, b), without allocating once
// the log has reached its working size. The same rules as [Journal.Record]
// apply; a nil u is ignored.
func (j *Journal) RecordUndoer(u JournalUndoer, a, b int64) {
	if j == nil || u == nil || j.rolling {
		return
	}
	j.clock++
	j.log = append(j.log, journalStep{u: u, a: a, b: b, serial: j.clock})
}

// len returns the number of steps recorded since the last Commit and not yet
// rolled back.
func (j *Journal) len() int {
	if j == nil {
		return 0
	}
	return len(j.log)
}

func (j *Journal) check(cp Checkpoint) error {
	if j == nil || cp.j != j || cp.pos > len(j.log) || j.markAt(cp.pos) != cp.mark {
		return ErrInvalidCheckpoint
	}
	return nil
}

// Rollback undoes, newest first, every step recorded since cp and forgets
// them; cp stays valid, and so does every checkpoint at cp's position or
// before, while checkpoints at later positions become stale. For an
// invalid checkpoint it returns [ErrInvalidCheckpoint] and changes nothing; called from
// one of this journal's undo steps, it returns an error ("requeue: journal
// is rolling back") and changes nothing. A panicking undo step stops the rollback and the panic goes on;
// see [Journal] for the state it leaves. O(k) for k undone steps.
func (j *Journal) Rollback(cp Checkpoint) error {
	if j != nil && j.rolling {
		return errRollingBack
	}
	if err := j.check(cp); err != nil {
		return err
	}
	j.rolling = true
	defer j.stopRolling() // also when a step panics
	for len(j.log) > cp.pos {
		i := len(j.log) - 1
		s := j.log[i]
		// Forget the step before running it: a step that panics is not run
		// twice, and the log stays consistent for a later rollback.
		j.log[i] = journalStep{} // drop references for the garbage collector
		j.log = j.log[:i]
		if s.u != nil {
			s.u.Undo(s.a, s.b)
		} else {
			s.fn()
		}
	}
	return nil
}

func (j *Journal) stopRolling() { j.rolling = false }

// Commit forgets the log, keeping every change, and makes every earlier
// checkpoint stale. Committing an empty log is a no-op apart from that.
// Called from one of this journal's undo steps, it returns an error
// ("requeue: journal is rolling back") and changes nothing; otherwise it returns nil. O(k) for the k steps
// forgotten. A nil journal ignores it.
func (j *Journal) Commit() error {
	if j == nil {
		return nil
	}
	if j.rolling {
		return errRollingBack
	}
	clear(j.log)
	j.log = j.log[:0]
	j.clock++
	j.base = j.clock
	return nil
}
