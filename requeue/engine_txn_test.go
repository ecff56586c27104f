package requeue_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
	"github.com/tenurepolicy/tenure/requeue/internal/clustercheck"
)

// mixedTx is a Transactional model that keeps its own transactions for
// evictions but records its placements' undo steps in the engine's journal:
// the engine must run both, the journal's first.
type mixedTx struct{ tx *txCluster }

func (m mixedTx) Evict(_ *requeue.Journal, id string) error         { return m.tx.c.Evict(&m.tx.j, id) }
func (m mixedTx) Place(j *requeue.Journal, id string) (bool, error) { return m.tx.c.Place(j, id) }
func (m mixedTx) Savepoint() uint64                                 { return m.tx.Savepoint() }
func (m mixedTx) Rollback(sp uint64) error                          { return m.tx.Rollback(sp) }

// reverseMixedTx is the other hybrid: evictions recorded in the engine's
// journal, placements in the model's own transactions. Undoing a pass
// must then undo the placements before the evictions they used.
type reverseMixedTx struct{ tx *txCluster }

func (m reverseMixedTx) Evict(j *requeue.Journal, id string) error { return m.tx.c.Evict(j, id) }
func (m reverseMixedTx) Place(_ *requeue.Journal, id string) (bool, error) {
	return m.tx.c.Place(&m.tx.j, id)
}
func (m reverseMixedTx) Savepoint() uint64        { return m.tx.Savepoint() }
func (m reverseMixedTx) Rollback(sp uint64) error { return m.tx.Rollback(sp) }

// hybrids are the Transactional models over a Cluster that keep part of
// their changes in the engine's journal and part in their own
// transactions, in both orders.
var hybrids = []struct {
	name  string
	model func(c *cluster.Model) requeue.Transactional
}{
	{"evictions own, placements journaled", func(c *cluster.Model) requeue.Transactional { return mixedTx{&txCluster{c: c}} }},
	{"evictions journaled, placements own", func(c *cluster.Model) requeue.Transactional { return reverseMixedTx{&txCluster{c: c}} }},
}

// TestEngineTransactionalWithJournal: a Transactional model that also
// records undo steps in the engine's journal, for either kind of change,
// gets the same pass as the Cluster seen through Evict and Place alone.
func TestEngineTransactionalWithJournal(t *testing.T) {
	now := t0.Add(10 * time.Hour)
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t)
		wantCluster := w.cluster.Clone()
		want, err := requeue.NewEngine(w.cfg)
		if err != nil {
			t.Fatal(err)
		}
		wantRes, err := want.Run(now, w.in, plainModel{wantCluster})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hybrids {
			e, _ := requeue.NewEngine(w.cfg)
			c := w.cluster.Clone()
			res, err := e.Run(now, w.in, h.model(c))
			if err != nil {
				t.Fatalf("%s: %v", h.name, err)
			}
			if d := cmp.Diff(wantRes, res, sameResult...); d != "" {
				t.Fatalf("%s (-plain +mixed):\n%s", h.name, d)
			}
			if d := cmp.Diff(wantCluster.Snapshot(), c.Snapshot()); d != "" {
				t.Fatalf("%s: model (-plain +mixed):\n%s", h.name, d)
			}
		}
	})
}

// placeThenPanic is a Transactional model that panics right after it
// placed the job job (the placement recorded).
type placeThenPanic struct {
	requeue.Transactional
	job string
}

func (m placeThenPanic) Place(j *requeue.Journal, id string) (bool, error) {
	ok, err := m.Transactional.Place(j, id)
	if ok && id == m.job {
		panic("panics with big placed")
	}
	return ok, err
}

// TestEngineHybridPanicRestore: the model panics in a multi-victim set
// search, after two evictions and the contender's placement; whichever
// half of the changes the model keeps in its own transactions, Run
// restores the model to the start of the pass (undoing the placement
// before the evictions).
func TestEngineHybridPanicRestore(t *testing.T) {
	for _, h := range hybrids {
		t.Run(h.name, func(t *testing.T) {
			// Two 2-GPU victims on one 4-GPU node; big needs both gone. The
			// model panics right after placing big in the set search: with
			// both evictions and big's placement uncommitted.
			c := gpuCluster(t, 1, fxJob{id: "v1", gpus: []int64{2}, running: true}, fxJob{id: "v2", gpus: []int64{2}, running: true},
				fxJob{id: "big", gpus: []int64{4}})
			before := c.Snapshot()
			e, _ := requeue.NewEngine(requeue.EngineConfig{})
			func() {
				defer func() {
					if r := recover(); r != "panics with big placed" {
						t.Fatalf("recovered %v", r)
					}
				}()
				_, _ = e.Run(t0, requeue.EngineInput{
					Nominations: noms("x", "v1", "v2"),
					Victims:     []requeue.Victim{{ID: "v1", Start: t0}, {ID: "v2", Start: t0.Add(-time.Hour)}},
					Contenders:  []requeue.Contender{{ID: "big", Priority: 5}},
				}, placeThenPanic{h.model(c), "big"})
			}()
			if d := cmp.Diff(before, c.Snapshot()); d != "" {
				t.Fatalf("model not restored (-before +after):\n%s", d)
			}
			if err := clustercheck.Check(c); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// countingTx counts a Transactional model's calls.
type countingTx struct {
	*txCluster
	savepoints, rollbacks int
}

func (m *countingTx) Savepoint() uint64 { m.savepoints++; return m.txCluster.Savepoint() }
func (m *countingTx) Rollback(sp uint64) error {
	m.rollbacks++
	return m.txCluster.Rollback(sp)
}

// TestEngineUsesTransactional: with a Transactional model the engine takes
// one savepoint per fit test, eviction and commit, rolls back
// through the model, and the engine's journal stays empty.
func TestEngineUsesTransactional(t *testing.T) {
	c := gpuCluster(t, 2, fxJob{id: "v", gpus: []int64{4}, running: true}, fxJob{id: "w", gpus: []int64{4}, running: true},
		fxJob{id: "big", gpus: []int64{8}}, fxJob{id: "p", gpus: []int64{4}})
	m := &countingTx{txCluster: &txCluster{c: c}}
	e, _ := requeue.NewEngine(requeue.EngineConfig{})
	res, err := e.Run(t0, requeue.EngineInput{
		Nominations: noms("x", "v", "w"),
		Victims:     []requeue.Victim{{ID: "v"}, {ID: "w", Priority: 1}},
		Contenders:  []requeue.Contender{{ID: "big", Priority: 9}, {ID: "p", Priority: 5}},
	}, m)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]requeue.Outcome{committedAt(t0, "v", "p"), keptFor("w", eligibility.Reason("no_fit"))}, res.Outcomes, errPresence); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
	// Savepoints: the pass's start (1); big and p without eviction (2);
	// big's search (it fits no 4-GPU node): v's eviction, big, w's
	// eviction, big (4), which leaves v and w evicted; p, of big's class,
	// tested with them evicted (1), fits: its search, v's eviction and p
	// (2); the commit of {v} for p: v's eviction, p, the commit (3); big
	// without eviction after it (1). Rollbacks: one per savepoint an undo
	// passes back over: 2 for the first round, 2 for big's fit tests, 1 for
	// p's test with both evicted, 2 to take v and w back, 1 for p's test in
	// its search and 1 to take v back, 1 for big after the commit.
	if m.savepoints != 14 || m.rollbacks != 10 {
		t.Errorf("%d savepoints, %d rollbacks", m.savepoints, m.rollbacks)
	}
	if requeue.JournalLen(e) != 0 || m.j.Len() == 0 {
		t.Errorf("engine journal %d steps, model's %d", requeue.JournalLen(e), m.j.Len())
	}
	if !running(c, "w") || running(c, "v") || !running(c, "p") {
		t.Errorf("model %+v", c.Snapshot())
	}
}
