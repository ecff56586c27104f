package requeue

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// intState is a tiny journaled state for journal tests: a slice of ints
// where every append records its undo.
type intState struct {
	j    *Journal
	vals []int
}

func (s *intState) push(v int) {
	s.vals = append(s.vals, v)
	s.j.Record(func() { s.vals = s.vals[:len(s.vals)-1] })
}

func TestJournalNestedRollback(t *testing.T) {
	var j Journal
	s := &intState{j: &j}
	s.push(1)
	outer := j.Checkpoint()
	s.push(2)
	inner := j.Checkpoint()
	s.push(3)
	s.push(4)

	if err := j.Rollback(inner); err != nil {
		t.Fatalf("Rollback(inner) = %v", err)
	}
	if d := cmp.Diff([]int{1, 2}, s.vals); d != "" {
		t.Fatalf("after inner rollback (-want +got):\n%s", d)
	}
	// The inner checkpoint stays valid and can be rolled back to again.
	s.push(5)
	if err := j.Rollback(inner); err != nil {
		t.Fatalf("second Rollback(inner) = %v", err)
	}
	if err := j.Rollback(inner); err != nil {
		t.Fatalf("third Rollback(inner), nothing to undo = %v", err)
	}
	if d := cmp.Diff([]int{1, 2}, s.vals); d != "" {
		t.Fatalf("after repeated inner rollback (-want +got):\n%s", d)
	}
	if err := j.Rollback(outer); err != nil {
		t.Fatalf("Rollback(outer) = %v", err)
	}
	if d := cmp.Diff([]int{1}, s.vals); d != "" {
		t.Fatalf("after outer rollback (-want +got):\n%s", d)
	}
	// Rolled back past: the inner checkpoint is stale, even once the log
	// has grown back to (and beyond) its position.
	if err := j.Rollback(inner); !errors.Is(err, ErrInvalidCheckpoint) {
		t.Fatalf("Rollback(rolled-back-past) = %v, want ErrInvalidCheckpoint", err)
	}
	s.push(6)
	s.push(7)
	if err := j.Rollback(inner); !errors.Is(err, ErrInvalidCheckpoint) {
		t.Fatalf("Rollback(rolled-back-past, regrown log) = %v, want ErrInvalidCheckpoint", err)
	}
	if d := cmp.Diff([]int{1, 6, 7}, s.vals); d != "" {
		t.Fatalf("rejected rollback changed state (-want +got):\n%s", d)
	}
}

func TestJournalCommit(t *testing.T) {
	var j Journal
	s := &intState{j: &j}
	before := j.Checkpoint() // empty log
	s.push(1)
	mid := j.Checkpoint()
	s.push(2)
	j.Commit()
	if j.Len() != 0 {
		t.Fatalf("Len after Commit = %d, want 0", j.Len())
	}
	for name, cp := range map[string]Checkpoint{"empty-log": before, "mid": mid} {
		if err := j.Rollback(cp); !errors.Is(err, ErrInvalidCheckpoint) {
			t.Errorf("Rollback(%s checkpoint from before Commit) = %v, want ErrInvalidCheckpoint", name, err)
		}
	}
	after := j.Checkpoint()
	j.Commit()
	j.Commit() // twice: no-op
	if err := j.Rollback(after); !errors.Is(err, ErrInvalidCheckpoint) {
		t.Errorf("Rollback(checkpoint before second Commit) = %v, want ErrInvalidCheckpoint", err)
	}
	if d := cmp.Diff([]int{1, 2}, s.vals); d != "" {
		t.Fatalf("Commit changed state (-want +got):\n%s", d)
	}
	cp := j.Checkpoint()
	s.push(3)
	if err := j.Rollback(cp); err != nil {
		t.Fatalf("Rollback(fresh) = %v", err)
	}
	if d := cmp.Diff([]int{1, 2}, s.vals); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
}

func TestJournalForeignAndZero(t *testing.T) {
	var a, b Journal
	cpB := b.Checkpoint()
	for name, cp := range map[string]Checkpoint{"zero": {}, "other journal": cpB} {
		if err := a.Rollback(cp); !errors.Is(err, ErrInvalidCheckpoint) {
			t.Errorf("Rollback(%s) = %v, want ErrInvalidCheckpoint", name, err)
		}
		if a.Valid(cp) {
			t.Errorf("Valid(%s) = true", name)
		}
	}
	// A nil journal records nothing and rejects every checkpoint.
	var nj *Journal
	nj.Record(func() { t.Fatal("nil journal ran a step") })
	nj.RecordUndoer(nil, 0, 0)
	nj.Commit()
	if nj.Len() != 0 {
		t.Errorf("nil Len = %d", nj.Len())
	}
	if err := nj.Rollback(nj.Checkpoint()); !errors.Is(err, ErrInvalidCheckpoint) {
		t.Errorf("nil Rollback = %v, want ErrInvalidCheckpoint", err)
	}
}

func TestJournalIgnoresNilAndReentrantSteps(t *testing.T) {
	var j Journal
	cp := j.Checkpoint()
	j.Record(nil)
	j.RecordUndoer(nil, 1, 2)
	if j.Len() != 0 {
		t.Fatalf("nil steps recorded: Len = %d", j.Len())
	}
	ran := 0
	j.Record(func() {
		ran++
		j.Record(func() { t.Error("step recorded during rollback ran") })
	})
	if err := j.Rollback(cp); err != nil {
		t.Fatal(err)
	}
	if ran != 1 || j.Len() != 0 {
		t.Fatalf("ran = %d, Len = %d; want 1, 0", ran, j.Len())
	}
	if err := j.Rollback(cp); err != nil || ran != 1 {
		t.Fatalf("second rollback: err %v, ran %d", err, ran)
	}
}

type orderUndoer struct{ got *[]string }

func (u orderUndoer) Undo(a, b int64) { *u.got = append(*u.got, fmt.Sprint(a, b)) }

func TestJournalUndoOrder(t *testing.T) {
	var j Journal
	var got []string
	cp := j.Checkpoint()
	j.RecordUndoer(orderUndoer{&got}, 1, 10)
	j.Record(func() { got = append(got, "closure") })
	j.RecordUndoer(orderUndoer{&got}, 3, 30)
	if err := j.Rollback(cp); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"3 30", "closure", "1 10"}, got); d != "" {
		t.Fatalf("undo order (-want +got):\n%s", d)
	}
}

func TestJournalCheckpointAllocs(t *testing.T) {
	var j Journal
	u := orderUndoer{new([]string)}
	j.RecordUndoer(u, 0, 0)
	allocs := testing.AllocsPerRun(100, func() {
		cp := j.Checkpoint()
		if !j.Valid(cp) {
			t.Fatal("invalid")
		}
	})
	if allocs != 0 {
		t.Fatalf("Checkpoint allocates %v times", allocs)
	}
}
