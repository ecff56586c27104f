package requeue

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// recovered runs f and returns the value it panicked with (nil if none).
func recovered(f func()) (v any) {
	defer func() { v = recover() }()
	f()
	return nil
}

// panicUndoer panics in Undo after marking that it ran.
type panicUndoer struct{ ran *int }

func (u panicUndoer) Undo(a, b int64) {
	*u.ran++
	panic(fmt.Sprint("undo ", a))
}

// TestJournalPanickingStep: a step that panics (closure or JournalUndoer)
// reaches the caller with its own value; the journal keeps the older steps
// and the checkpoints up to the panicking step's position, drops the
// panicking step (it is not run again), and works normally afterwards: the
// rolling state does not stick.
func TestJournalPanickingStep(t *testing.T) {
	for _, kind := range []string{"closure", "undoer"} {
		t.Run(kind, func(t *testing.T) {
			var j Journal
			s := &intState{j: &j}
			ran := 0
			cp0 := j.Checkpoint()
			s.push(1)
			s.push(2)
			cp2 := j.Checkpoint()
			if kind == "closure" {
				j.Record(func() { ran++; panic("undo 7") })
			} else {
				j.RecordUndoer(panicUndoer{&ran}, 7, 0)
			}
			cp3 := j.Checkpoint()
			s.push(4)
			cp4 := j.Checkpoint()
			s.push(5)

			if v := recovered(func() { _ = j.Rollback(cp0) }); v != "undo 7" {
				t.Fatalf("recovered %v, want the step's own panic value", v)
			}
			if ran != 1 {
				t.Fatalf("panicking step ran %d times, want 1", ran)
			}
			if d := cmp.Diff([]int{1, 2}, s.vals); d != "" {
				t.Fatalf("newer steps not undone, older ones not kept (-want +got):\n%s", d)
			}
			if j.Len() != 2 {
				t.Fatalf("Len = %d, want 2 (the two older steps)", j.Len())
			}
			for name, want := range map[string]bool{"cp0": true, "cp2": true, "cp3": false, "cp4": false} {
				cp := map[string]Checkpoint{"cp0": cp0, "cp2": cp2, "cp3": cp3, "cp4": cp4}[name]
				if got := j.Valid(cp); got != want {
					t.Errorf("Valid(%s) = %v, want %v", name, got, want)
				}
			}
			// Recording works again (it is silently ignored while rolling).
			s.push(6)
			if j.Len() != 3 {
				t.Fatalf("Record after the panic ignored: Len = %d, want 3", j.Len())
			}
			if err := j.Rollback(cp2); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff([]int{1, 2}, s.vals); d != "" {
				t.Fatalf("Rollback(cp2) after the panic (-want +got):\n%s", d)
			}
			// A later rollback to the same checkpoint continues where the
			// panic stopped, without running the dropped step again.
			if err := j.Rollback(cp0); err != nil {
				t.Fatal(err)
			}
			if len(s.vals) != 0 || ran != 1 || j.Len() != 0 {
				t.Fatalf("vals %v, ran %d, Len %d; want [], 1, 0", s.vals, ran, j.Len())
			}
			if err := j.Commit(); err != nil {
				t.Fatalf("Commit after the panic = %v", err)
			}
		})
	}
}

// TestJournalReentrant: an undo step that calls Rollback or Commit on its
// own journal is refused with errRollingBack (whatever the checkpoint),
// changes nothing, and the outer rollback completes. Before this was
// guarded, Rollback from an undo step recursed until the stack overflowed.
func TestJournalReentrant(t *testing.T) {
	var j, other Journal
	s := &intState{j: &j}
	cp0 := j.Checkpoint()
	s.push(1)
	cp1 := j.Checkpoint()
	var errs []error
	j.Record(func() {
		errs = append(errs,
			j.Rollback(cp0),
			j.Rollback(cp1),
			j.Rollback(Checkpoint{}),
			j.Commit())
		// Another journal is not re-entrance: it works.
		ocp := other.Checkpoint()
		other.Record(func() {})
		errs = append(errs, other.Rollback(ocp))
	})
	s.push(2)
	if err := j.Rollback(cp0); err != nil {
		t.Fatal(err)
	}
	want := []error{errRollingBack, errRollingBack, errRollingBack, errRollingBack, nil}
	if len(errs) != len(want) {
		t.Fatalf("errs = %v, want %v", errs, want)
	}
	for i := range want {
		if !errors.Is(errs[i], want[i]) || (want[i] == nil) != (errs[i] == nil) {
			t.Errorf("call %d: %v, want %v", i, errs[i], want[i])
		}
	}
	if len(s.vals) != 0 || j.Len() != 0 || !j.Valid(cp0) || j.Valid(cp1) {
		t.Fatalf("outer rollback incomplete: vals %v, Len %d", s.vals, j.Len())
	}
	if err := j.Commit(); err != nil {
		t.Fatal(err)
	}
	if errRollingBack.Error() != "requeue: journal is rolling back" {
		t.Errorf("message %q", errRollingBack)
	}
}

// TestJournalRollbackAllocs: once the log has grown, recording
// allocation-free steps and rolling them back allocates nothing (the
// deferred reset of the rolling state included).
func TestJournalRollbackAllocs(t *testing.T) {
	var j Journal
	u := stepCounter{new(int)}
	cp := j.Checkpoint()
	for range 64 {
		j.RecordUndoer(u, 0, 0)
	}
	_ = j.Rollback(cp)
	allocs := testing.AllocsPerRun(100, func() {
		for range 64 {
			j.RecordUndoer(u, 0, 0)
		}
		if err := j.Rollback(cp); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("record+rollback allocates %v times", allocs)
	}
}

type stepCounter struct{ n *int }

func (u stepCounter) Undo(a, b int64) { *u.n++ }

// jmCheckpoint is the oracle's view of a checkpoint: where it points and
// whether it is still valid.
type jmCheckpoint struct {
	cp    Checkpoint
	pos   int
	valid bool
}

// TestJournalPanicStateMachine drives a Journal with random pushes (some of
// whose undo steps panic, after half-undoing: they overwrite the value with
// -1), checkpoints, rollbacks (recovering the panics) and commits, against a
// naive oracle: a list of steps and an explicit validity flag per
// checkpoint, invalidated when the log is cut below its position.
func TestJournalPanicStateMachine(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var j Journal
		var vals []int // the journaled state
		type step struct {
			v      int
			panics bool
		}
		var log []step // the oracle's log
		var cps []jmCheckpoint
		want := []int{}      // the oracle's state
		cut := func(n int) { // the oracle forgets log[n:]
			log = log[:n]
			for i := range cps {
				if cps[i].pos > n {
					cps[i].valid = false
				}
			}
		}
		next := 0
		t.Repeat(map[string]func(*rapid.T){
			"push": func(t *rapid.T) {
				next++
				v, panics := next, rapid.IntRange(0, 4).Draw(t, "panics") == 0
				vals = append(vals, v)
				if panics {
					j.Record(func() { vals[len(vals)-1] = -1; panic("step") })
				} else {
					j.Record(func() { vals = vals[:len(vals)-1] })
				}
				want = append(want, v)
				log = append(log, step{v, panics})
			},
			"checkpoint": func(t *rapid.T) {
				cps = append(cps, jmCheckpoint{j.Checkpoint(), len(log), true})
			},
			"rollback": func(t *rapid.T) {
				if len(cps) == 0 {
					t.Skip("no checkpoint")
				}
				c := cps[rapid.IntRange(0, len(cps)-1).Draw(t, "which")]
				var err error
				p := recovered(func() { err = j.Rollback(c.cp) })
				if !c.valid {
					if !errors.Is(err, ErrInvalidCheckpoint) || p != nil {
						t.Fatalf("Rollback(stale) = %v, panic %v", err, p)
					}
					return
				}
				// The oracle undoes from the newest step down to c.pos,
				// stopping at the first panicking step.
				wantPanic := false
				for len(log) > c.pos {
					s := log[len(log)-1]
					cut(len(log) - 1)
					if s.panics {
						want[len(want)-1] = -1
						wantPanic = true
						break
					}
					want = want[:len(want)-1]
				}
				if (p != nil) != wantPanic || (p == nil && err != nil) {
					t.Fatalf("Rollback: panic %v, err %v; oracle panic %v", p, err, wantPanic)
				}
			},
			"commit": func(t *rapid.T) {
				if err := j.Commit(); err != nil {
					t.Fatal(err)
				}
				cut(0)
				for i := range cps {
					cps[i].valid = false
				}
			},
			"": func(t *rapid.T) {
				if !slices.Equal(vals, want) {
					t.Fatalf("state %v, oracle %v", vals, want)
				}
				if j.Len() != len(log) {
					t.Fatalf("Len %d, oracle %d", j.Len(), len(log))
				}
				for i, c := range cps {
					if j.Valid(c.cp) != c.valid {
						t.Fatalf("checkpoint %d (pos %d): Valid %v, oracle %v", i, c.pos, j.Valid(c.cp), c.valid)
					}
				}
			},
		})
	})
}
