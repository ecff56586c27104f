package cluster

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/requeue"
)

// guardCluster returns two 1-GPU nodes and pending 1-GPU jobs x, y and z,
// registered in that order.
func guardCluster(t *testing.T) *Model {
	t.Helper()
	c, err := New([]Node{{Name: "n0", Capacity: Resources{GPU: 1}}, {Name: "n1", Capacity: Resources{GPU: 1}}, {Name: "n2", Capacity: Resources{GPU: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"x", "y", "z"} {
		if err := c.AddJob(nil, Job{ID: id, Tasks: []Resources{{GPU: 1}}}); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// rollbackPanic rolls j back to cp and returns the panic's text ("" if
// none).
func rollbackPanic(j *requeue.Journal, cp requeue.Checkpoint) (msg string, err error) {
	defer func() {
		if v := recover(); v != nil {
			msg = fmt.Sprint(v)
		}
	}()
	return "", j.Rollback(cp)
}

// TestClusterUndoDetectsUnrecordedChanges: undo steps name jobs by their
// storage slot, so a change made without the journal that moves jobs
// between slots would make a later rollback undo the wrong job. Each undo
// step checks that it finds the job and task state it recorded, and panics
// with a message naming the job instead of corrupting the cluster.
func TestClusterUndoDetectsUnrecordedChanges(t *testing.T) {
	for _, tc := range []struct {
		name string
		// recorded runs with the journal, unrecorded without; want is what
		// the panic must say.
		recorded, unrecorded func(*Model, *requeue.Journal) error
		want                 []string
	}{{
		name: "slot reused by another job",
		recorded: func(c *Model, j *requeue.Journal) error {
			_, err := c.Place(j, "z")
			return err
		},
		unrecorded: func(c *Model, _ *requeue.Journal) error {
			_, err := c.Place(nil, "y")
			if err == nil {
				err = c.removeJob(nil, "x") // z moves into x's slot
			}
			if err == nil {
				err = c.AddJob(nil, Job{ID: "w", Tasks: []Resources{{GPU: 1}}}) // w takes z's old slot
			}
			if err == nil {
				_, err = c.Place(nil, "w")
			}
			return err
		},
		want: []string{`job "z"`, `holding job "w"`},
	}, {
		name: "placement evicted",
		recorded: func(c *Model, j *requeue.Journal) error {
			_, err := c.Place(j, "z")
			return err
		},
		unrecorded: func(c *Model, _ *requeue.Journal) error { return c.Evict(nil, "z") },
		want:       []string{`job "z"`, "task 0"},
	}, {
		name: "placement moved",
		recorded: func(c *Model, j *requeue.Journal) error {
			_, err := c.Place(j, "z")
			return err
		},
		unrecorded: func(c *Model, _ *requeue.Journal) error {
			if err := c.Evict(nil, "z"); err != nil {
				return err
			}
			if _, err := c.Place(nil, "x"); err != nil { // x takes z's node
				return err
			}
			_, err := c.Place(nil, "z")
			return err
		},
		want: []string{`job "z"`, "task 0"},
	}, {
		name: "freed resources taken",
		recorded: func(c *Model, j *requeue.Journal) error {
			for _, id := range []string{"x", "y", "z"} {
				if _, err := c.Place(nil, id); err != nil {
					return err
				}
			}
			return c.Evict(j, "x")
		},
		unrecorded: func(c *Model, _ *requeue.Journal) error {
			if err := c.AddJob(nil, Job{ID: "w", Tasks: []Resources{{GPU: 1}}}); err != nil {
				return err
			}
			_, err := c.Place(nil, "w") // the node x left
			return err
		},
		want: []string{`job "x"`, "does not fit"},
	}, {
		name: "evicted job placed again",
		recorded: func(c *Model, j *requeue.Journal) error {
			if _, err := c.Place(nil, "x"); err != nil {
				return err
			}
			return c.Evict(j, "x")
		},
		unrecorded: func(c *Model, _ *requeue.Journal) error {
			_, err := c.Place(nil, "x")
			return err
		},
		want: []string{`job "x"`},
	}, {
		name: "added job followed by another",
		recorded: func(c *Model, j *requeue.Journal) error {
			return c.AddJob(j, Job{ID: "v", Tasks: []Resources{{GPU: 1}}})
		},
		unrecorded: func(c *Model, _ *requeue.Journal) error {
			return c.AddJob(nil, Job{ID: "w", Tasks: []Resources{{GPU: 1}}})
		},
		want: []string{`job "v"`, "not the last"},
	}, {
		name: "added job placed",
		recorded: func(c *Model, j *requeue.Journal) error {
			return c.AddJob(j, Job{ID: "v", Tasks: []Resources{{GPU: 1}}})
		},
		unrecorded: func(c *Model, _ *requeue.Journal) error {
			_, err := c.Place(nil, "v")
			return err
		},
		want: []string{`job "v"`, "running"},
	}, {
		name: "removed job's ID registered again",
		recorded: func(c *Model, j *requeue.Journal) error {
			return c.removeJob(j, "y")
		},
		unrecorded: func(c *Model, _ *requeue.Journal) error {
			if err := c.removeJob(nil, "x"); err != nil {
				return err
			}
			return c.AddJob(nil, Job{ID: "y", Tasks: []Resources{{GPU: 1}}})
		},
		want: []string{`job "y"`, "registered"},
	}, {
		name: "jobs added after a removal",
		recorded: func(c *Model, j *requeue.Journal) error {
			return c.removeJob(j, "x")
		},
		unrecorded: func(c *Model, _ *requeue.Journal) error {
			return c.AddJob(nil, Job{ID: "w", Tasks: []Resources{{GPU: 1}}})
		},
		want: []string{`job "x"`, "3 jobs"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			c := guardCluster(t)
			var j requeue.Journal
			cp := j.Checkpoint()
			if err := tc.recorded(c, &j); err != nil {
				t.Fatal(err)
			}
			if err := tc.unrecorded(c, &j); err != nil {
				t.Fatal(err)
			}
			before := c.Snapshot()
			msg, err := rollbackPanic(&j, cp)
			if msg == "" {
				t.Fatalf("Rollback = %v without a panic; cluster now %v (was %v)", err, c.Snapshot(), before)
			}
			for _, w := range append(tc.want, "cluster: ", "without the journal") {
				if !strings.Contains(msg, w) {
					t.Errorf("panic %q lacks %q", msg, w)
				}
			}
		})
	}
}

// TestClusterUndoAcrossRecordedSlotMoves: the guard does not fire when
// every change is recorded, however jobs move between slots.
func TestClusterUndoAcrossRecordedSlotMoves(t *testing.T) {
	c := guardCluster(t)
	var j requeue.Journal
	before := c.Snapshot()
	cp := j.Checkpoint()
	steps := []func() error{
		func() error { _, err := c.Place(&j, "z"); return err },
		func() error { _, err := c.Place(&j, "y"); return err },
		func() error { return c.removeJob(&j, "x") },
		func() error { return c.AddJob(&j, Job{ID: "w", Tasks: []Resources{{GPU: 1}}}) },
		func() error { _, err := c.Place(&j, "w"); return err },
		func() error { return c.Evict(&j, "z") },
		func() error { return c.removeJob(&j, "y") },
		func() error { return c.AddJob(&j, Job{ID: "x", Tasks: []Resources{{GPU: 1}}}) },
		func() error { _, err := c.Place(&j, "x"); return err },
	}
	for i, s := range steps {
		if err := s(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if err := c.check(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	if msg, err := rollbackPanic(&j, cp); msg != "" || err != nil {
		t.Fatalf("Rollback = %v, panic %q", err, msg)
	}
	if d := cmp.Diff(before, c.Snapshot()); d != "" {
		t.Fatalf("rollback (-want +got):\n%s", d)
	}
	if err := c.check(); err != nil {
		t.Fatal(err)
	}
}

// TestClusterUndoGuardProperty drives random changes, some recorded in the
// journal and some not, then rolls back: the rollback either panics with
// the guard's message, or leaves a consistent cluster in which every job
// that no unrecorded change touched is as it was at the checkpoint. With
// no unrecorded change it never panics.
func TestClusterUndoGuardProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes := rapid.IntRange(1, 3).Draw(t, "nodes")
		c, err := New(churnNodesGPU(nodes, 2))
		if err != nil {
			t.Fatal(err)
		}
		ids := []string{"a", "b", "c", "d", "e"}
		job := func(id string) Job {
			// Elastic two-task jobs: a placement may leave a task pending.
			return Job{ID: id, Tasks: []Resources{{GPU: 1}, {GPU: int64(len(id)%2 + 1)}}, MinTasks: 1}
		}
		for _, id := range ids[:3] {
			_ = c.AddJob(nil, job(id))
			_, _ = c.Place(nil, id)
		}
		var j requeue.Journal
		at := c.Snapshot()
		cp := j.Checkpoint()
		touched := map[string]bool{}
		anyUnrecorded := false
		for i := range rapid.IntRange(0, 25).Draw(t, "ops") {
			id := rapid.SampledFrom(ids).Draw(t, fmt.Sprint("job", i))
			recorded := rapid.IntRange(0, 3).Draw(t, fmt.Sprint("recorded", i)) > 0
			jr := &j
			if !recorded {
				jr = nil
			}
			var err error
			switch rapid.IntRange(0, 3).Draw(t, fmt.Sprint("op", i)) {
			case 0:
				err = c.AddJob(jr, job(id))
			case 1:
				err = c.removeJob(jr, id)
			case 2:
				var ok bool
				ok, err = c.Place(jr, id)
				if err == nil && !ok {
					err = fmt.Errorf("no fit")
				}
			case 3:
				err = c.Evict(jr, id)
			}
			if err == nil && !recorded {
				touched[id] = true
				anyUnrecorded = true
			}
		}
		msg, err := rollbackPanic(&j, cp)
		if msg != "" {
			if !anyUnrecorded {
				t.Fatalf("panic with every change recorded: %s", msg)
			}
			if !strings.HasPrefix(msg, "cluster: ") {
				t.Fatalf("panic %q is not the guard's", msg)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := c.check(); err != nil {
			t.Fatalf("rollback without a panic left the cluster inconsistent: %v", err)
		}
		now := c.Snapshot()
		for _, id := range ids {
			if touched[id] {
				continue
			}
			was, wasOK := at.Jobs[id]
			is, isOK := now.Jobs[id]
			if wasOK != isOK || !slices.Equal(was, is) {
				t.Fatalf("job %q, untouched by unrecorded changes: %v (%v) after the rollback, %v (%v) at the checkpoint", id, is, isOK, was, wasOK)
			}
		}
	})
}

func churnNodesGPU(n int, gpus int64) []Node {
	nodes := make([]Node, n)
	for i := range nodes {
		nodes[i] = Node{Name: fmt.Sprintf("n%d", i), Capacity: Resources{GPU: gpus}}
	}
	return nodes
}

// TestClusterCloneKeepsSerials: a clone goes on numbering jobs where the
// original left off, so a job added to the clone never shares a serial
// with a job it already holds (the guard could not tell them apart).
func TestClusterCloneKeepsSerials(t *testing.T) {
	d := guardCluster(t).Clone()
	for _, id := range []string{"v", "w"} {
		if err := d.AddJob(nil, Job{ID: id, Tasks: []Resources{{GPU: 1}}}); err != nil {
			t.Fatal(err)
		}
	}
	seen := map[uint32]string{}
	for _, job := range d.jobs {
		if other, dup := seen[job.serial]; dup {
			t.Fatalf("jobs %q and %q share serial %d", other, job.id, job.serial)
		}
		seen[job.serial] = job.id
	}
}
