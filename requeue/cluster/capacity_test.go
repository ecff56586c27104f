package cluster

import (
	"testing"

	"pgregory.net/rapid"
)

// TestClusterEverFitSound: whenever mayEverFit says a job can never
// fit, Place says so as things are and with every running job evicted; it
// says true for an unknown or running job, and changes nothing.
func TestClusterEverFitSound(t *testing.T) {
	ruledOut := 0
	rapid.Check(t, func(t *rapid.T) {
		c, ids := drawShapeCluster(t)
		job := rapid.SampledFrom(append(ids, "ghost")).Draw(t, "job")
		before := c.Snapshot()
		may := c.mayEverFit(job)
		if !snapshotsEqual(before, c.Snapshot()) {
			t.Fatal("mayEverFit changed the cluster")
		}
		switch {
		case may:
			return
		case !c.has(job) || c.running(job):
			t.Fatalf("mayEverFit(%q) = false for an unknown or running job", job)
		}
		ruledOut++
		empty := c.Clone()
		for _, id := range ids {
			if empty.running(id) {
				if err := empty.Evict(nil, id); err != nil {
					t.Fatal(err)
				}
			}
		}
		for _, d := range []*Model{c.Clone(), empty} {
			if ok, err := d.Place(nil, job); ok || err != nil {
				t.Fatalf("mayEverFit(%q) = false, but Place = %v, %v", job, ok, err)
			}
		}
	})
	if ruledOut == 0 {
		t.Fatal("no draw ruled a job out")
	}
}

// TestClusterEverFitRulesOut pins the two tests at their edges: a task
// one GPU larger than the largest node, a gang one GPU larger than the
// cluster, and the jobs just inside both; a running job, an unknown one,
// the zero Model and a nil Model.
func TestClusterEverFitRulesOut(t *testing.T) {
	c, err := New([]Node{{Name: "a", Capacity: Resources{MilliCPU: 4000, GPU: 8}}, {Name: "b", Capacity: Resources{MilliCPU: 8000, GPU: 4}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id    string
		min   int
		tasks []Resources
		want  bool
	}{
		{"node-size", 0, []Resources{{GPU: 8}}, true},
		{"gpu-too-large", 0, []Resources{{GPU: 9}}, false},
		{"cpu-too-large", 0, []Resources{{MilliCPU: 8001}}, false},
		// Each component fits some node, not both the same: the
		// component-wise bound lets it through (Place says no).
		{"mixed", 0, []Resources{{MilliCPU: 8000, GPU: 8}}, true},
		{"cluster-size", 0, []Resources{{GPU: 6}, {GPU: 6}}, true},
		{"gang-too-large", 0, []Resources{{GPU: 6}, {GPU: 7}}, false},
		{"elastic", 1, []Resources{{GPU: 9}, {GPU: 2}}, true},
		{"elastic-too-large", 2, []Resources{{GPU: 9}, {GPU: 2}}, false},
	} {
		if err := c.AddJob(nil, Job{ID: tc.id, Tasks: tc.tasks, MinTasks: tc.min}); err != nil {
			t.Fatal(err)
		}
		if got := c.mayEverFit(tc.id); got != tc.want {
			t.Errorf("mayEverFit(%q) = %v, want %v", tc.id, got, tc.want)
		}
	}
	if ok, err := c.Place(nil, "node-size"); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if !c.mayEverFit("node-size") || !c.mayEverFit("ghost") {
		t.Error("mayEverFit false for a running or an unknown job")
	}
	var zero Model
	if err := zero.AddJob(nil, Job{ID: "j", Tasks: []Resources{{GPU: 1}}}); err != nil {
		t.Fatal(err)
	}
	var nilModel *Model
	if zero.mayEverFit("j") || !zero.mayEverFit("ghost") || !nilModel.mayEverFit("j") {
		t.Error("zero Model: a job with a request must never fit, an unknown one may; a nil Model says true")
	}
}
