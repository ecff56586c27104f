package requeuetest_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
	"github.com/tenurepolicy/tenure/requeue/internal/journalhook"
	"github.com/tenurepolicy/tenure/requeue/requeuetest"
)

// logToy is a Transactional toy that keeps an undo log, as a scheduler's
// Statement does, and ignores the engine's journal. scheme chooses what a
// savepoint is:
//
//   - "serial": the serial number of the newest log entry (0 for the empty
//     log), from a counter that never repeats, as requeue.Journal marks its
//     checkpoints. Rollback accepts a serial still in the log, including
//     one it never returned as a savepoint.
//   - "length+rollbacks": the log length and the number of rollbacks so
//     far; a savepoint is accepted while no rollback since it went below
//     its length.
//   - "stack": the log length, and a stack of the savepoints issued and not
//     invalidated; Rollback accepts only a value on the stack.
//   - "length": the log length alone, nothing invalidated (a defect: after
//     a rollback the same length names a different state).
type logToy struct {
	toy
	scheme  string
	log     []func()
	serials []uint64 // serial of each log entry
	clock   uint64   // last serial handed out
	lows    []int    // for each rollback so far, the length it went back to
	stack   []uint64
}

func newLogToy(scheme string) func() *logToy {
	return func() *logToy { return &logToy{toy: *newToy(""), scheme: scheme} }
}

func logToyState(t *logToy) string { return toyState(&t.toy) }

func (t *logToy) push(undo func()) {
	t.clock++
	t.log = append(t.log, undo)
	t.serials = append(t.serials, t.clock)
}

func (t *logToy) Evict(_ *requeue.Journal, id string) error {
	free, on := t.free, t.on[id]
	if err := t.toy.Evict(nil, id); err != nil {
		return err
	}
	t.push(func() { t.free = free; t.on[id] = on })
	return nil
}

func (t *logToy) Place(_ *requeue.Journal, id string) (bool, error) {
	free, on := t.free, t.on[id]
	ok, err := t.toy.Place(nil, id)
	if ok { // two entries, as a Statement records one operation per task
		t.push(func() { t.on[id] = on })
		t.push(func() { t.free = free })
	}
	return ok, err
}

func (t *logToy) Savepoint() uint64 {
	n := len(t.log)
	switch t.scheme {
	case "serial":
		if n == 0 {
			return 0
		}
		return uint64(t.serials[n-1])
	case "length+rollbacks":
		return uint64(uint64(n)<<32 | uint64(len(t.lows)))
	case "stack":
		t.stack = append(t.stack, uint64(n))
	}
	return uint64(n)
}

func (t *logToy) Rollback(sp uint64) error {
	to := -1 // the log length sp names, -1 when it is refused
	switch t.scheme {
	case "serial":
		if sp == 0 {
			to = 0
		}
		for i, s := range t.serials {
			if s == uint64(sp) {
				to = i + 1
			}
		}
	case "length+rollbacks":
		n, gen := int(sp>>32), int(uint32(sp))
		if n <= len(t.log) && gen <= len(t.lows) {
			to = n
			for _, low := range t.lows[gen:] {
				if low < n {
					to = -1
				}
			}
		}
	case "stack":
		for i := len(t.stack) - 1; i >= 0; i-- {
			if t.stack[i] == sp {
				to = int(sp)
				t.stack = t.stack[:i+1]
				break
			}
		}
	case "length":
		if int(sp) <= len(t.log) {
			to = int(sp)
		}
	}
	if to < 0 {
		return fmt.Errorf("savepoint %#x refused", uint64(sp))
	}
	for len(t.log) > to {
		t.log[len(t.log)-1]()
		t.log, t.serials = t.log[:len(t.log)-1], t.serials[:len(t.serials)-1]
	}
	t.lows = append(t.lows, to)
	return nil
}

// journalToy is a Transactional toy whose savepoints are requeue.Journal
// checkpoints of a journal of its own, numbered by a counter: a savepoint is
// valid exactly when its checkpoint is.
type journalToy struct {
	toy
	own   requeue.Journal
	cps   map[uint64]requeue.Checkpoint
	count uint64
}

func newJournalToy() *journalToy {
	return &journalToy{toy: *newToy(""), cps: map[uint64]requeue.Checkpoint{}}
}

func journalToyState(t *journalToy) string { return toyState(&t.toy) }

func (t *journalToy) Evict(_ *requeue.Journal, id string) error { return t.toy.Evict(&t.own, id) }

func (t *journalToy) Place(_ *requeue.Journal, id string) (bool, error) {
	return t.toy.Place(&t.own, id)
}

func (t *journalToy) Savepoint() uint64 {
	t.count++
	t.cps[t.count] = t.own.Checkpoint()
	return t.count
}

func (t *journalToy) Rollback(sp uint64) error {
	cp, ok := t.cps[sp]
	if !ok {
		return errors.New("unknown savepoint")
	}
	return t.own.Rollback(cp)
}

// hybridToy keeps half of its state in the engine's journal and half in
// savepoints over a journal of its own: Evict and Place record the change
// of the running set in the journal they are given, and the change of the
// free count in their own.
type hybridToy struct{ journalToy }

func newHybridToy() *hybridToy { return &hybridToy{*newJournalToy()} }

func hybridToyState(t *hybridToy) string { return toyState(&t.toy) }

func (t *hybridToy) Evict(j *requeue.Journal, id string) error {
	free, on := t.free, t.on[id]
	if err := t.toy.Evict(nil, id); err != nil {
		return err
	}
	j.Record(func() { t.on[id] = on })
	t.own.Record(func() { t.free = free })
	return nil
}

func (t *hybridToy) Place(j *requeue.Journal, id string) (bool, error) {
	free, on := t.free, t.on[id]
	ok, err := t.toy.Place(nil, id)
	if ok {
		j.Record(func() { t.on[id] = on })
		t.own.Record(func() { t.free = free })
	}
	return ok, err
}

// TestJournalCheckpointsAtOnePosition pins what the kit's documentation
// and journalToy rely on: a requeue.Journal checkpoint taken after another
// at the same position stays valid after a rollback to the older one, and
// one at a later position does not, even when the log grows back past it.
func TestJournalCheckpointsAtOnePosition(t *testing.T) {
	var j requeue.Journal
	j.Record(func() {})
	a := j.Checkpoint()
	b := j.Checkpoint() // same position as a, taken after it
	j.Record(func() {})
	c := j.Checkpoint() // a later position
	if err := j.Rollback(a); err != nil {
		t.Fatal(err)
	}
	j.Record(func() {})
	if !journalhook.Valid(&j, a) || !journalhook.Valid(&j, b) {
		t.Errorf("after Rollback(a): Valid(a) = %v, Valid(b) = %v; want both true", journalhook.Valid(&j, a), journalhook.Valid(&j, b))
	}
	if err := j.Rollback(c); !errors.Is(err, requeue.ErrInvalidCheckpoint) {
		t.Errorf("Rollback(c) = %v, want ErrInvalidCheckpoint", err)
	}
	if err := j.Rollback(b); err != nil || journalhook.Len(&j) != 1 {
		t.Errorf("Rollback(b) = %v, Len %d; want nil, 1", err, journalhook.Len(&j))
	}
}

// hybridCluster is a Transactional model over the reference Cluster that
// keeps one kind of change in its own transactions (a journal of its own
// with a stack of savepoints) and records the other in the journal it is
// given: evictions own and placements journaled, or the reverse.
type hybridCluster struct {
	*cluster.Model
	placementsOwn bool
	own           requeue.Journal
	marks         []hybridMark
	next          uint64
}

type hybridMark struct {
	sp uint64
	cp requeue.Checkpoint
}

func (h *hybridCluster) Evict(j *requeue.Journal, id string) error {
	if !h.placementsOwn {
		j = &h.own
	}
	return h.Model.Evict(j, id)
}

func (h *hybridCluster) Place(j *requeue.Journal, id string) (bool, error) {
	if h.placementsOwn {
		j = &h.own
	}
	return h.Model.Place(j, id)
}

func (h *hybridCluster) Savepoint() uint64 {
	h.next++
	h.marks = append(h.marks, hybridMark{h.next, h.own.Checkpoint()})
	return h.next
}

func (h *hybridCluster) Rollback(sp uint64) error {
	for i := len(h.marks) - 1; i >= 0; i-- {
		if h.marks[i].sp == sp {
			if err := h.own.Rollback(h.marks[i].cp); err != nil {
				return err
			}
			h.marks = h.marks[:i+1]
			return nil
		}
	}
	return fmt.Errorf("hybrid: unknown savepoint %d", sp)
}

// TestHybridModelsPass: a model that keeps part of its changes in its own
// transactions and records the rest in the journal is restored in the
// reverse order of its changes, whichever part is which, as the engine
// restores it.
func TestHybridModelsPass(t *testing.T) {
	for _, placementsOwn := range []bool{false, true} {
		for seed := uint64(1); seed <= 3; seed++ {
			err := requeuetest.TestModel(func() *hybridCluster { return &hybridCluster{Model: testCluster(), placementsOwn: placementsOwn} },
				func(h *hybridCluster) string { return clusterState(h.Model) }, clusterRunning, clusterPending, requeuetest.Options{Seed: seed})
			if err != nil {
				t.Errorf("placements in own transactions %v, seed %d: %v", placementsOwn, seed, err)
			}
		}
	}
}
