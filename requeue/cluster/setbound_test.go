package cluster

import (
	"testing"

	"pgregory.net/rapid"
)

// TestClusterMayFitAfterSound: whenever MayFitAfter says a job cannot fit
// after evicting a set of victims, Place says so after evicting every
// subset of them (the empty one included); it says true for what it
// cannot judge, and changes nothing.
func TestClusterMayFitAfterSound(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c, ids := drawShapeCluster(t)
		job := rapid.SampledFrom(append(ids, "ghost")).Draw(t, "job")
		victims := rapid.SliceOfNDistinct(rapid.SampledFrom(append(ids, "ghost")), 0, 5, rapid.ID[string]).Draw(t, "victims")
		before := c.Snapshot()
		may := c.MayFitAfter(victims, job)
		if !snapshotsEqual(before, c.Snapshot()) {
			t.Fatal("MayFitAfter changed the cluster")
		}
		judged := c.has(job) && !c.running(job)
		for _, v := range victims {
			judged = judged && v != job && c.has(v) && c.running(v)
		}
		switch {
		case may:
			return
		case !judged:
			t.Fatalf("MayFitAfter(%q, %q) = false for what Evict or Place would reject with an error", victims, job)
		}
		for mask := range 1 << len(victims) {
			d := c.Clone()
			var sub []string
			for i, v := range victims {
				if mask>>i&1 == 1 {
					sub = append(sub, v)
					if err := d.Evict(nil, v); err != nil {
						t.Fatal(err)
					}
				}
			}
			if ok, err := d.Place(nil, job); ok || err != nil {
				t.Fatalf("MayFitAfter(%q, %q) = false, but after evicting %q Place = %v, %v", victims, job, sub, ok, err)
			}
		}
	})
}

// TestClusterMayFitAfterRulesOut: the set bound rules out a job larger
// than any node's room, whatever is evicted, but not a gang whose room two
// victims make together on two nodes; with one victim, it answers as
// MayFit does.
func TestClusterMayFitAfterRulesOut(t *testing.T) {
	c := gpuCluster(t, 3,
		fxJob{id: "a", gpus: []int64{4}, running: true},                                                  // n0
		fxJob{id: "c", gpus: []int64{3}, running: true},                                                  // n1: 1 free
		fxJob{id: "e", gpus: []int64{2}, running: true}, fxJob{id: "f", gpus: []int64{2}, running: true}, // n2
		fxJob{id: "five", gpus: []int64{5}}, fxJob{id: "four2", gpus: []int64{4, 4}}, fxJob{id: "three3", gpus: []int64{3, 3, 3}})
	tests := []struct {
		job     string
		victims []string
		want    bool
	}{
		{"five", []string{"a", "c", "e", "f"}, false}, // no node holds 5 GPUs
		{"five", nil, false},
		{"four2", []string{"a"}, false},           // 5 GPUs free in all, 8 needed
		{"four2", []string{"a", "c"}, true},       // n0 and n1 hold 4 each
		{"five", []string{"a", "c"}, false},       // 8 GPUs free in all, but no node's room holds 5 (rooms are not summed)
		{"four2", []string{"c", "e"}, false},      // 6 GPUs free in all, 8 needed
		{"three3", []string{"a", "c", "e"}, true}, // rooms of 4, 4 and 2: the free total, 10, and the rooms' sum allow it
		{"three3", []string{"a", "c"}, false},     // 8 GPUs free in all, 9 needed
		{"four2", []string{"a", "ghost"}, true},   // unknown victim: Evict will say
		{"ghost", []string{"a"}, true},            // unknown job: Place will say
		{"a", []string{"c"}, true},                // running job: Place will say
		{"five", []string{"five"}, true},          // a pending victim: Evict will say
	}
	for _, tc := range tests {
		if got := c.MayFitAfter(tc.victims, tc.job); got != tc.want {
			t.Errorf("MayFitAfter(%q, %q) = %v, want %v", tc.victims, tc.job, got, tc.want)
		}
		if len(tc.victims) == 1 {
			if one := mayFit(c, tc.job, tc.victims[0]); one != tc.want {
				t.Errorf("MayFit(%q, %q) = %v, MayFitAfter = %v", tc.job, tc.victims[0], one, tc.want)
			}
		}
	}
}
