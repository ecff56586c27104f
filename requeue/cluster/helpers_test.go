package cluster

import (
	"fmt"
	"maps"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/requeue"
)

// The fixtures below are small copies of the requeue package's engine test
// fixtures: that package's tests import this one, so they cannot be shared.

var t0 = time.Date(2025, 1, 15, 10, 0, 0, 0, time.UTC)

type fxJob struct {
	id      string
	gpus    []int64 // one task per entry
	running bool
}

// gpuCluster builds a cluster of nodes with 4 GPUs each and the given jobs,
// running ones placed by first fit in the order given.
func gpuCluster(t testing.TB, nodes int, jobs ...fxJob) *Model {
	t.Helper()
	var ns []Node
	for i := range nodes {
		ns = append(ns, Node{Name: fmt.Sprintf("n%d", i), Capacity: Resources{GPU: 4}})
	}
	c, err := New(ns)
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs {
		var tasks []Resources
		for _, g := range j.gpus {
			tasks = append(tasks, Resources{GPU: g})
		}
		if err := c.AddJob(nil, Job{ID: j.id, Tasks: tasks}); err != nil {
			t.Fatal(err)
		}
		if j.running {
			if ok, err := c.Place(nil, j.id); !ok || err != nil {
				t.Fatalf("setup: place %s: %v %v", j.id, ok, err)
			}
		}
	}
	return c
}

// plainModel hides the Model's optional interfaces (Shaper, FitBounder).
type plainModel struct{ c *Model }

func (m plainModel) Evict(j *requeue.Journal, id string) error         { return m.c.Evict(j, id) }
func (m plainModel) Place(j *requeue.Journal, id string) (bool, error) { return m.c.Place(j, id) }

// benchPass times engine passes over fresh clones of base.
func benchPass(b *testing.B, base *Model, in requeue.EngineInput, cfg requeue.EngineConfig, now time.Time, model func(*Model) requeue.Model) {
	e, err := requeue.NewEngine(cfg)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := e.Run(now, in, model(base.Clone())); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		m := model(base.Clone())
		runtime.GC()
		b.StartTimer()
		if _, err := e.Run(now, in, m); err != nil {
			b.Fatal(err)
		}
	}
}

// snapshotsEqual reports whether two snapshots describe the same state.
func snapshotsEqual(a, b Snapshot) bool {
	return maps.Equal(a.Free, b.Free) && maps.EqualFunc(a.Jobs, b.Jobs, slices.Equal[[]string])
}
