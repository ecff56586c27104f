package cluster_test

import (
	"fmt"

	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
)

// The reference model places jobs by first fit, as gangs, and journals every
// change so a virtual eviction can be undone exactly.
func ExampleModel() {
	c, err := cluster.New([]cluster.Node{
		{Name: "gpu-a", Capacity: cluster.Resources{MilliCPU: 32000, Memory: 256 << 30, GPU: 8}},
		{Name: "gpu-b", Capacity: cluster.Resources{MilliCPU: 32000, Memory: 256 << 30, GPU: 8}},
	})
	if err != nil {
		panic(err)
	}
	task := cluster.Resources{MilliCPU: 8000, Memory: 64 << 30, GPU: 4}
	_ = c.AddJob(nil, cluster.Job{ID: "train", Tasks: []cluster.Resources{task, task, task, task}})
	_ = c.AddJob(nil, cluster.Job{ID: "serve", Tasks: []cluster.Resources{task, task}})
	ok, _ := c.Place(nil, "train")
	fmt.Println("train placed:", ok, c.Snapshot().Jobs["train"])
	ok, _ = c.Place(nil, "serve")
	fmt.Println("serve placed:", ok)

	// Virtually evict train and place serve; then undo both.
	var j requeue.Journal
	cp := j.Checkpoint()
	_ = c.Evict(&j, "train")
	ok, _ = c.Place(&j, "serve")
	fmt.Println("serve placed after evicting train:", ok, c.Snapshot().Jobs["serve"])
	_ = j.Rollback(cp)
	fmt.Println("rolled back:", c.Snapshot().Jobs)
	// Output:
	// train placed: true [gpu-a gpu-a gpu-b gpu-b]
	// serve placed: false
	// serve placed after evicting train: true [gpu-a gpu-a]
	// rolled back: map[serve:[ ] train:[gpu-a gpu-a gpu-b gpu-b]]
}
