package cluster

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/requeue"
)

// TestClusterFitCacheMatchesTree drives two clusters with the same random
// operations, one remembering failed requests and one searching the tree
// every time: every placement must land on the same nodes, and the cache's
// invariant must hold after every step. Requests come from a handful of
// shapes on nodes whose free resources fragment (cores on some, GPUs on
// others), so that failed requests are remembered and asked again after
// evictions, removals and rollbacks.
func TestClusterFitCacheMatchesTree(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var nodes []Node
		for i := range rapid.IntRange(1, 12).Draw(t, "nodes") {
			nodes = append(nodes, Node{Name: fmt.Sprint("n", i), Capacity: Resources{
				MilliCPU: rapid.SampledFrom([]int64{2000, 4000}).Draw(t, "cpu"),
				Memory:   8,
				GPU:      rapid.SampledFrom([]int64{0, 2, 4}).Draw(t, "gpu"),
			}})
		}
		cached, err := New(nodes)
		if err != nil {
			t.Fatal(err)
		}
		tree := cached.Clone()
		tree.fitCacheOff = true
		shapes := []Resources{{MilliCPU: 2000}, {GPU: 2}, {MilliCPU: 1000, GPU: 1}, {MilliCPU: 2000, GPU: 2}, {Memory: 4, GPU: 1}}
		var jc, jt requeue.Journal
		var cps [][2]requeue.Checkpoint
		jobs := 0
		both := func(op string, f func(c *Model, j *requeue.Journal) (any, error)) {
			a, errA := f(cached, &jc)
			b, errB := f(tree, &jt)
			if (errA == nil) != (errB == nil) || !cmp.Equal(a, b) {
				t.Fatalf("%s: cached %v, %v; tree %v, %v", op, a, errA, b, errB)
			}
			if d := cmp.Diff(tree.Snapshot(), cached.Snapshot()); d != "" {
				t.Fatalf("%s: (-tree +cached):\n%s", op, d)
			}
			if err := cached.check(); err != nil {
				t.Fatalf("%s: %v", op, err)
			}
		}
		id := func(t *rapid.T) string { return fmt.Sprint("j", rapid.IntRange(0, max(jobs-1, 0)).Draw(t, "job")) }
		t.Repeat(map[string]func(*rapid.T){
			"add": func(t *rapid.T) {
				job := Job{ID: fmt.Sprint("j", jobs)}
				for range rapid.IntRange(1, 3).Draw(t, "tasks") {
					job.Tasks = append(job.Tasks, rapid.SampledFrom(shapes).Draw(t, "shape"))
				}
				job.MinTasks = rapid.IntRange(0, len(job.Tasks)).Draw(t, "min")
				jobs++
				both("add", func(c *Model, j *requeue.Journal) (any, error) { return nil, c.AddJob(j, job) })
			},
			"place": func(t *rapid.T) {
				id := id(t)
				both("place "+id, func(c *Model, j *requeue.Journal) (any, error) { return c.Place(j, id) })
			},
			"evict": func(t *rapid.T) {
				id := id(t)
				both("evict "+id, func(c *Model, j *requeue.Journal) (any, error) { return nil, c.Evict(j, id) })
			},
			"remove": func(t *rapid.T) {
				id := id(t)
				both("remove "+id, func(c *Model, j *requeue.Journal) (any, error) { return nil, c.removeJob(j, id) })
			},
			"checkpoint": func(t *rapid.T) {
				cps = append(cps, [2]requeue.Checkpoint{jc.Checkpoint(), jt.Checkpoint()})
			},
			"rollback": func(t *rapid.T) {
				if len(cps) == 0 {
					t.Skip("no checkpoint")
				}
				k := rapid.IntRange(0, len(cps)-1).Draw(t, "to")
				cp := cps[k]
				cps = cps[:k+1]
				both("rollback", func(c *Model, j *requeue.Journal) (any, error) {
					if c == cached {
						return nil, j.Rollback(cp[0])
					}
					return nil, j.Rollback(cp[1])
				})
			},
			"commit": func(t *rapid.T) {
				cps = cps[:0]
				both("commit", func(c *Model, j *requeue.Journal) (any, error) { return nil, j.Commit() })
			},
		})
	})
}

// TestClusterFitCacheForgets: past fitLogLimit logged nodes the cache
// starts over, so its memory stays bounded whatever the history; answers
// stay right across the reset.
func TestClusterFitCacheForgets(t *testing.T) {
	c, in := fragmentedWorld(t, 8, 1)
	var j requeue.Journal
	for i := range fitLogLimit + 10 {
		cp := j.Checkpoint()
		if err := c.Evict(&j, in.Victims[i%len(in.Victims)].ID); err != nil {
			t.Fatal(err)
		}
		if ok, err := c.Place(&j, "p00000"); ok || err != nil {
			t.Fatalf("placed: %v", err)
		}
		if err := j.Rollback(cp); err != nil {
			t.Fatal(err)
		}
		if len(c.fits.grown) > fitLogLimit {
			t.Fatalf("%d logged nodes", len(c.fits.grown))
		}
	}
	if c.fits.epoch < 1 {
		t.Fatalf("the log never started over (epoch %d)", c.fits.epoch)
	}
	if err := c.check(); err != nil {
		t.Fatal(err)
	}
	// A hog leaves: the request fits its node at once.
	if err := c.removeJob(nil, "hog00003"); err != nil {
		t.Fatal(err)
	}
	if ok, err := c.Place(nil, "p00000"); !ok || err != nil {
		t.Fatalf("Place after room was made: %v, %v", ok, err)
	}
	if got := c.placement("p00000"); got[0] != "n00003" {
		t.Fatalf("placed on %v, want n00003", got)
	}
}

// TestClusterFitCacheFirstFit: a remembered request that fits again after
// nodes freed room goes to the lowest of them, whatever order they were
// freed in, as first fit does.
func TestClusterFitCacheFirstFit(t *testing.T) {
	c, _ := fragmentedWorld(t, 8, 2)
	if ok, err := c.Place(nil, "p00000"); ok || err != nil {
		t.Fatalf("fits a fragmented cluster: %v", err)
	}
	req := Resources{MilliCPU: 1000, GPU: 1}
	if c.fits == nil {
		t.Fatal("no memory of failed requests")
	}
	if _, ok := c.fits.Recall(req); !ok {
		t.Fatal("the failed request is not remembered")
	}
	for _, hog := range []string{"hog00005", "hog00002", "hog00007"} {
		if err := c.removeJob(nil, hog); err != nil {
			t.Fatal(err)
		}
	}
	for id, want := range map[string]string{"p00000": "n00002", "p00001": "n00002"} {
		if ok, err := c.Place(nil, id); !ok || err != nil {
			t.Fatalf("Place(%s): %v, %v", id, ok, err)
		}
		if got := c.placement(id); got[0] != want {
			t.Fatalf("%s on %v, want %s", id, got, want)
		}
	}
	if err := c.check(); err != nil {
		t.Fatal(err)
	}
}

// TestClusterFitCacheSearchesOnce: the engine's pattern on a fragmented
// cluster (evict, try a contender that fits no node, roll back), repeated
// with each victim in turn, searches the tree once; the rest is answered
// from the nodes freed since.
func TestClusterFitCacheSearchesOnce(t *testing.T) {
	c, in := fragmentedWorld(t, 1000, 1)
	var j requeue.Journal
	for _, v := range in.Victims {
		cp := j.Checkpoint()
		if err := c.Evict(&j, v.ID); err != nil {
			t.Fatal(err)
		}
		if ok, err := c.Place(&j, "p00000"); ok || err != nil {
			t.Fatalf("placed: %v", err)
		}
		if err := j.Rollback(cp); err != nil {
			t.Fatal(err)
		}
	}
	if c.searches != 1 {
		t.Fatalf("%d tree searches for %d attempts, want 1", c.searches, len(in.Victims))
	}
	if err := c.check(); err != nil {
		t.Fatal(err)
	}
}
