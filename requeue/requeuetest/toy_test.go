package requeuetest_test

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tenurepolicy/tenure/requeue"
)

// toy is a small journaled model: a pool of GPUs and jobs that need some
// of them. bug names a defect to inject ("" for none).
type toy struct {
	free int
	need map[string]int
	on   map[string]bool
	bug  string
	// refused caches the jobs Place refused, under bug "cache-refusals":
	// a cache the state text does not render and no undo step clears, so
	// Place goes on refusing a job once room is made for it.
	refused map[string]bool
	// placeCalls counts Place calls, for bug "first-refusal-sticky": the
	// job of the model's first Place, if refused, is refused for good.
	placeCalls int
	sticky     string
}

// toyJobs: a and b run (3 + 2 of 8 GPUs), c, d and e are pending.
func newToy(bug string) *toy {
	t := &toy{free: 3, need: map[string]int{"a": 3, "b": 2, "c": 4, "d": 1, "e": 6}, on: map[string]bool{"a": true, "b": true}, bug: bug}
	return t
}

var (
	toyRunning = []string{"a", "b"}
	toyPending = []string{"c", "d", "e"}
)

func toyState(t *toy) string {
	return fmt.Sprintf("free=%d running=%v", t.free, slices.Sorted(maps.Keys(onlyTrue(t.on))))
}

func onlyTrue(m map[string]bool) map[string]bool {
	out := map[string]bool{}
	for k, v := range m {
		if v {
			out[k] = v
		}
	}
	return out
}

func (t *toy) Evict(j *requeue.Journal, id string) error {
	n, known := t.need[id]
	if !known && t.bug != "evict-unknown" {
		return fmt.Errorf("unknown job %q", id)
	}
	if !t.on[id] && known {
		return fmt.Errorf("job %q is not running", id)
	}
	if t.bug == "panic" && id == "b" {
		panic("toy: cannot evict b")
	}
	t.on[id] = false
	t.free += n
	if t.bug == "forget-evict-undo" {
		return nil
	}
	j.Record(func() { t.on[id] = true; t.free -= n })
	return nil
}

func (t *toy) Place(j *requeue.Journal, id string) (bool, error) {
	n, known := t.need[id]
	if !known {
		return false, fmt.Errorf("unknown job %q", id)
	}
	if t.on[id] {
		if t.bug == "place-running" {
			return false, nil
		}
		return false, fmt.Errorf("job %q already runs", id)
	}
	if t.bug == "cache-refusals" && t.refused[id] {
		return false, nil
	}
	t.placeCalls++
	if t.bug == "first-refusal-sticky" && t.sticky == id {
		return false, nil
	}
	if n > t.free {
		if t.bug == "first-refusal-sticky" && t.placeCalls == 1 {
			t.sticky = id
		}
		if t.bug == "cache-refusals" {
			if t.refused == nil {
				t.refused = map[string]bool{}
			}
			t.refused[id] = true
		}
		if t.bug == "failed-place-leaks" && t.free > 0 {
			t.free-- // a partial reservation, never recorded
		}
		return false, nil
	}
	if t.bug == "commits-journal" {
		_ = j.Commit()
	}
	t.on[id] = true
	t.free -= n
	j.Record(func() {
		t.on[id] = false
		if t.bug == "wrong-undo" {
			t.free += n - 1 // gives back one GPU too few
		} else {
			t.free += n
		}
	})
	return true, nil
}

// txToy keeps its own transactions: savepoints are copies of the state,
// tagged with a number never reused, on a stack that a rollback pops. It
// ignores the journal. bug names a defect to inject, or "no-invalidate": a
// rollback does not pop the stack, so the model accepts savepoints taken
// after the one it rolled back to (and restores them exactly);
// "unknown-accepted": Rollback of a value beyond any it returned returns
// nil, changing nothing.
type txToy struct {
	toy
	saves []txSave
	next  uint64
	log   []func() // "index": an undo log whose length is the savepoint
}

type txSave struct {
	sp   uint64
	free int
	on   map[string]bool
}

func newTxToy(bug string) *txToy { return &txToy{toy: *newToy(bug), next: 100} }

func txToyState(t *txToy) string { return toyState(&t.toy) }

func (t *txToy) Evict(_ *requeue.Journal, id string) error {
	free, on := t.free, t.on[id]
	if err := t.toy.Evict(nil, id); err != nil {
		return err
	}
	t.log = append(t.log, func() { t.free = free; t.on[id] = on })
	return nil
}

func (t *txToy) Place(_ *requeue.Journal, id string) (bool, error) {
	free, on := t.free, t.on[id]
	ok, err := t.toy.Place(nil, id)
	if ok {
		// Two log entries per placement, as a Statement records one
		// operation per task.
		t.log = append(t.log, func() { t.on[id] = on }, func() { t.free = free })
	}
	return ok, err
}

func (t *txToy) Savepoint() uint64 {
	if t.bug == "index-savepoints" {
		return uint64(len(t.log))
	}
	t.next++
	t.saves = append(t.saves, txSave{t.next, t.free, maps.Clone(t.on)})
	return t.next
}

func (t *txToy) Rollback(sp uint64) error {
	if t.bug == "index-savepoints" {
		if sp > uint64(len(t.log)) {
			return errors.New("savepoint ahead of the log")
		}
		for len(t.log) > int(sp) {
			t.log[len(t.log)-1]()
			t.log = t.log[:len(t.log)-1]
		}
		return nil
	}
	for i := len(t.saves) - 1; i >= 0; i-- {
		s := t.saves[i]
		if s.sp != sp {
			continue
		}
		t.free = s.free
		if t.bug != "tx-forgets-jobs" {
			t.on = maps.Clone(s.on)
		}
		if t.bug != "no-invalidate" {
			t.saves = t.saves[:i+1]
		}
		return nil
	}
	switch t.bug {
	case "unknown-resets":
		t.free = 3
	case "unknown-accepted":
		if sp > t.next {
			return nil
		}
	}
	return fmt.Errorf("unknown savepoint %d", sp)
}

// problem returns the Problem of a *Failure, or the error text.
func problem(err error) string {
	var f *requeuetestFailure
	if errors.As(err, &f) {
		return f.Problem
	}
	if err == nil {
		return ""
	}
	return "not a Failure: " + strings.SplitN(err.Error(), "\n", 2)[0]
}
