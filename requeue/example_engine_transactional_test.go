package requeue_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/requeue"
)

// statement is a tiny scheduler session in the style of KAI-Scheduler's and
// Volcano's Statement: it applies each operation to its state at once, logs
// it, and undoes the log back to a checkpoint on rollback. It implements
// requeue.Transactional, so the engine marks and restores its state with
// Savepoint and Rollback: its Evict and Place record nothing in the engine's
// journal.
type statement struct {
	free  map[string]int // free GPUs per node
	jobs  map[string]*job
	ops   []move // applied, oldest first
	marks []mark // valid savepoints, oldest first
	next  uint64
}

type job struct {
	gpus int
	node string // "" when pending
}

// move says that job moved from node from ("" pending) to node to.
type move struct{ job, from, to string }

type mark struct {
	sp  uint64
	len int // len(ops) when taken
}

// apply makes a move and logs it.
func (s *statement) apply(m move) {
	s.set(m)
	s.ops = append(s.ops, m)
}

func (s *statement) set(m move) {
	j := s.jobs[m.job]
	if m.from != "" {
		s.free[m.from] += j.gpus
	}
	if m.to != "" {
		s.free[m.to] -= j.gpus
	}
	j.node = m.to
}

func (s *statement) Evict(_ *requeue.Journal, id string) error {
	j, ok := s.jobs[id]
	if !ok || j.node == "" {
		return fmt.Errorf("%s is not running", id)
	}
	s.apply(move{id, j.node, ""})
	return nil
}

func (s *statement) Place(_ *requeue.Journal, id string) (bool, error) {
	j, ok := s.jobs[id]
	if !ok || j.node != "" {
		return false, fmt.Errorf("%s is not pending", id)
	}
	for _, n := range []string{"n1", "n2"} {
		if s.free[n] >= j.gpus {
			s.apply(move{id, "", n})
			return true, nil
		}
	}
	return false, nil
}

func (s *statement) Savepoint() uint64 {
	s.next++
	s.marks = append(s.marks, mark{s.next, len(s.ops)})
	return s.next
}

func (s *statement) Rollback(sp uint64) error {
	for i := len(s.marks) - 1; i >= 0; i-- {
		if s.marks[i].sp != sp {
			continue
		}
		for len(s.ops) > s.marks[i].len { // undo, newest first
			m := s.ops[len(s.ops)-1]
			s.set(move{m.job, m.to, m.from})
			s.ops = s.ops[:len(s.ops)-1]
		}
		s.marks = s.marks[:i+1] // later savepoints are invalid now
		return nil
	}
	return errors.New("statement: unknown or invalidated savepoint")
}

// A model that brings its own transactions: the engine checkpoints and rolls
// back the statement instead of journaling undo steps. The statement's log
// ends the pass with the committed operations only.
func ExampleTransactional() {
	now := time.Date(2025, 1, 15, 12, 0, 0, 0, time.UTC)
	s := &statement{
		free: map[string]int{"n1": 8, "n2": 8},
		jobs: map[string]*job{"a": {gpus: 8}, "b": {gpus: 4}, "c": {gpus: 4}, "urgent": {gpus: 6}},
	}
	s.apply(move{"a", "", "n1"})
	s.apply(move{"b", "", "n2"})
	s.apply(move{"c", "", "n2"})
	s.ops = nil // the session starts here

	e, _ := requeue.NewEngine(requeue.EngineConfig{DefaultDelay: 30 * time.Minute})
	res, err := e.Run(now, requeue.EngineInput{
		Nominations: []requeue.VictimNomination{{Job: "a", Nominator: "expectedruntime"}, {Job: "b", Nominator: "expectedruntime"}},
		Victims: []requeue.Victim{
			{ID: "a", Start: now.Add(-3 * time.Hour), Expected: 2 * time.Hour},
			{ID: "b", Start: now.Add(-5 * time.Hour), Expected: 2 * time.Hour}, // has run longer: dearer to evict
		},
		Contenders: []requeue.Contender{{ID: "urgent", Priority: 100}},
	}, s)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range res.Outcomes {
		fmt.Println(o.Job, o.Kind, o.Reason, o.Contenders)
	}
	fmt.Println("statement:", s.ops)
	fmt.Println("free:", s.free)
	// Output:
	// a committed committed [urgent]
	// b kept no_contender []
	// statement: [{a n1 } {urgent  n1}]
	// free: map[n1:2 n2:0]
}
