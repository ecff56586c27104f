package requeue_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
)

// reentrantModel calls Run on the engine that is running it, from Place:
// the inner call must be refused, and the outer pass go on as if nothing
// had happened.
type reentrantModel struct {
	c     *cluster.Model
	e     *requeue.Engine
	in    requeue.EngineInput
	inner []error
}

func (m *reentrantModel) Evict(j *requeue.Journal, id string) error { return m.c.Evict(j, id) }

func (m *reentrantModel) Place(j *requeue.Journal, id string) (bool, error) {
	res, err := m.e.Run(t0, m.in, m.c.Clone())
	if len(res.Outcomes) != 0 || res.Attempts != 0 {
		m.inner = append(m.inner, errors.New("the refused pass returned a result"))
	}
	m.inner = append(m.inner, err)
	return m.c.Place(j, id)
}

// TestEngineRefusesReentrantRun: Run called from a callback of a pass of
// the same Engine returns ErrReentrantRun without touching the running
// pass.
func TestEngineRefusesReentrantRun(t *testing.T) {
	c := gpuCluster(t, 2, fxJob{id: "v1", gpus: []int64{4}, running: true}, fxJob{id: "v2", gpus: []int64{4}, running: true},
		fxJob{id: "big", gpus: []int64{4}}, fxJob{id: "big2", gpus: []int64{4}})
	in := requeue.EngineInput{
		Nominations: noms("a", "v1", "v2"),
		Victims:     []requeue.Victim{{ID: "v1"}, {ID: "v2"}},
		Contenders:  []requeue.Contender{{ID: "big", Priority: 5}, {ID: "big2", Priority: 4}},
	}
	want, err := (&requeue.Engine{}).Run(t0, in, plainModel{c.Clone()})
	if err != nil {
		t.Fatal(err)
	}
	var e requeue.Engine
	m := &reentrantModel{c: c.Clone(), e: &e, in: in}
	got, err := e.Run(t0, in, m)
	if err != nil {
		t.Fatalf("outer pass: %v", err)
	}
	if d := cmp.Diff(want, got, errPresence, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("outer pass (-alone +with re-entrant calls):\n%s", d)
	}
	if len(m.inner) == 0 {
		t.Fatal("Place was never called")
	}
	for _, err := range m.inner {
		if !errors.Is(err, requeue.ErrReentrantRun) {
			t.Fatalf("re-entrant Run: %v, want ErrReentrantRun", err)
		}
	}
	// The engine is free again once the pass is over.
	if _, err := e.Run(t0, in, c.Clone()); err != nil {
		t.Fatal(err)
	}
}
