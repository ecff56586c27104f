package cluster

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// drawShapeCluster draws a cluster with running and pending jobs whose tasks
// come from a few requests, so that shapes repeat.
func drawShapeCluster(t *rapid.T) (*Model, []string) {
	var nodes []Node
	for i := range rapid.IntRange(1, 5).Draw(t, "nodes") {
		nodes = append(nodes, Node{Name: fmt.Sprint("n", i), Capacity: Resources{
			MilliCPU: rapid.Int64Range(0, 4).Draw(t, "cpu") * 1000,
			GPU:      rapid.Int64Range(0, 8).Draw(t, "gpu"),
		}})
	}
	c, err := New(nodes)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i := range rapid.IntRange(1, 14).Draw(t, "jobs") {
		id := fmt.Sprint("j", i)
		var tasks []Resources
		for range rapid.IntRange(1, 4).Draw(t, "tasks") {
			tasks = append(tasks, Resources{MilliCPU: rapid.Int64Range(0, 1).Draw(t, "tcpu") * 1000, GPU: rapid.Int64Range(0, 4).Draw(t, "tgpu")})
		}
		if err := c.AddJob(nil, Job{ID: id, Tasks: tasks, MinTasks: rapid.IntRange(0, len(tasks)).Draw(t, "min")}); err != nil {
			t.Fatal(err)
		}
		if rapid.Bool().Draw(t, "run") {
			_, _ = c.Place(nil, id)
		}
		ids = append(ids, id)
	}
	return c, ids
}

// mayFit asks c's fit bound about one job.
func mayFit(c *Model, job, victim string) bool {
	fits := []bool{false}
	c.MayFit(victim, []string{job}, fits)
	return fits[0]
}

// TestClusterMayFitSound: whenever MayFit says a job cannot fit after
// evicting a victim (or without eviction), Place says so too; MayFit says
// true for what it cannot judge; asking about several jobs at once gives
// each one's answer.
func TestClusterMayFitSound(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c, ids := drawShapeCluster(t)
		job := rapid.SampledFrom(append(ids, "ghost")).Draw(t, "job")
		victim := rapid.SampledFrom(append(ids, "", "ghost")).Draw(t, "victim")
		before := c.Snapshot()
		may := mayFit(c, job, victim)
		batch := rapid.SliceOf(rapid.SampledFrom(append(ids, "ghost"))).Draw(t, "batch")
		fits := make([]bool, len(batch))
		c.MayFit(victim, batch, fits)
		for i, b := range batch {
			if fits[i] != mayFit(c, b, victim) {
				t.Fatalf("MayFit(%q, %v) = %v, but %q alone gives %v", victim, batch, fits, b, !fits[i])
			}
		}
		if !snapshotsEqual(before, c.Snapshot()) {
			t.Fatal("MayFit changed the cluster")
		}
		if !c.has(job) || c.running(job) {
			if !may {
				t.Fatalf("MayFit(%q, %q) = false for a job Place would reject with an error", job, victim)
			}
			return
		}
		if victim != "" && (!c.has(victim) || !c.running(victim) || victim == job) {
			if !may {
				t.Fatalf("MayFit(%q, %q) = false for a victim Evict would reject", job, victim)
			}
			return
		}
		if may {
			return
		}
		d := c.Clone()
		if victim != "" {
			if err := d.Evict(nil, victim); err != nil {
				t.Fatal(err)
			}
		}
		if ok, err := d.Place(nil, job); ok || err != nil {
			t.Fatalf("MayFit(%q, %q) = false, but Place = %v, %v", job, victim, ok, err)
		}
	})
}

// TestClusterShapeInterchangeable: two pending jobs with the same Shape key
// are placed alike in any state; different requests give different keys.
func TestClusterShapeInterchangeable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c, ids := drawShapeCluster(t)
		a := rapid.SampledFrom(ids).Draw(t, "a")
		b := rapid.SampledFrom(ids).Draw(t, "b")
		ka, oka := c.Shape(a)
		kb, okb := c.Shape(b)
		if oka != !c.running(a) || okb != !c.running(b) {
			t.Fatalf("Shape ok %v/%v for running %v/%v", oka, okb, c.running(a), c.running(b))
		}
		if !oka || !okb {
			return
		}
		ja, jb := c.jobs[c.jobIndex[a]], c.jobs[c.jobIndex[b]]
		sameRequests := ja.min == jb.min && len(ja.tasks) == len(jb.tasks)
		for i := 0; sameRequests && i < len(ja.tasks); i++ {
			sameRequests = ja.tasks[i] == jb.tasks[i]
		}
		if (ka == kb) != sameRequests {
			t.Fatalf("keys equal %v, requests equal %v", ka == kb, sameRequests)
		}
		if ka != kb {
			return
		}
		if victim := rapid.SampledFrom(ids).Draw(t, "victim"); victim != a && victim != b && c.running(victim) {
			if err := c.Evict(nil, victim); err != nil {
				t.Fatal(err)
			}
		}
		oa, _ := c.Clone().Place(nil, a)
		ob, _ := c.Clone().Place(nil, b)
		if oa != ob || mayFit(c, a, "") != mayFit(c, b, "") {
			t.Fatalf("same shape, Place %v/%v", oa, ob)
		}
	})
}

// TestClusterMayFitRulesOut shows the bound's two tests on a full cluster:
// the free total, and the tasks only the victim's room can hold.
func TestClusterMayFitRulesOut(t *testing.T) {
	c := gpuCluster(t, 3,
		fxJob{id: "a", gpus: []int64{4}, running: true},                                                  // n0
		fxJob{id: "c", gpus: []int64{3}, running: true},                                                  // n1: 1 free
		fxJob{id: "e", gpus: []int64{2}, running: true}, fxJob{id: "f", gpus: []int64{2}, running: true}, // n2
		fxJob{id: "one", gpus: []int64{1}}, fxJob{id: "two2", gpus: []int64{2, 2}}, fxJob{id: "four2", gpus: []int64{4, 4}},
		fxJob{id: "five", gpus: []int64{5}})
	tests := []struct {
		job, victim string
		want        bool
	}{
		{"one", "", true},        // n1 has 1 free
		{"two2", "", false},      // 1 GPU free in all, 4 needed
		{"two2", "e", false},     // 3 free in all
		{"two2", "a", true},      // a's room holds both tasks
		{"four2", "a", false},    // 5 free in all, 8 needed
		{"five", "a", false},     // 5 free in all, but no room of 5
		{"four2", "ghost", true}, // unknown victim: Evict will say
		{"ghost", "a", true},     // unknown job: Place will say
		{"a", "", true},          // running job: Place will say
	}
	for _, tc := range tests {
		if got := mayFit(c, tc.job, tc.victim); got != tc.want {
			t.Errorf("MayFit(%q, %q) = %v, want %v", tc.job, tc.victim, got, tc.want)
		}
	}
	// Enough GPUs free in all, but only a's room holds a 4-GPU task, and
	// it holds one.
	c = gpuCluster(t, 5, fxJob{id: "a", gpus: []int64{4}, running: true},
		fxJob{id: "b", gpus: []int64{3}, running: true}, fxJob{id: "c", gpus: []int64{3}, running: true},
		fxJob{id: "d", gpus: []int64{3}, running: true}, fxJob{id: "e", gpus: []int64{3}, running: true},
		fxJob{id: "four2", gpus: []int64{4, 4}})
	if c.free.GPU+4 < 8 {
		t.Fatal("setup: the free total alone should not rule four2 out")
	}
	if mayFit(c, "four2", "a") {
		t.Error("MayFit(four2, a) = true; only one 4-GPU room")
	}
	if ok, _ := c.Clone().Place(nil, "four2"); ok {
		t.Error("setup: four2 fits")
	}
}

// TestMayFitHugeGangSaturates: a job of 2^17 tasks, each asking for
// maxResource bytes, needs 2^63 bytes in total. gangLowerBound saturates
// instead of wrapping negative, and MayFit rules the job out on a one-node
// cluster, as it does a two-task job of the same size.
func TestMayFitHugeGangSaturates(t *testing.T) {
	c, err := New([]Node{{Name: "n", Capacity: Resources{Memory: maxResource}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{2, 1 << 17} {
		id := fmt.Sprint("big", n)
		if err := c.AddJob(nil, Job{ID: id, Tasks: slices.Repeat([]Resources{{Memory: maxResource}}, n)}); err != nil {
			t.Fatal(err)
		}
		fits := []bool{true}
		c.MayFit("", []string{id}, fits)
		if fits[0] {
			t.Errorf("%d tasks of %d bytes: MayFit says it may fit a node of %d bytes", n, int64(maxResource), int64(maxResource))
		}
	}
	if got := gangLowerBound([]Resources{{GPU: 1 << 62}, {GPU: 1 << 62}, {GPU: 1 << 62}}, 3); got.GPU != math.MaxInt64 {
		t.Errorf("gangLowerBound of 3 × 2^62 GPUs = %d, want saturation at %d", got.GPU, int64(math.MaxInt64))
	}
}
