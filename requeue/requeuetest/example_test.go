package requeuetest_test

import (
	"fmt"

	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
	"github.com/tenurepolicy/tenure/requeue/requeuetest"
)

// newExampleCluster returns a fresh model: two 8-GPU nodes, two running
// jobs and four pending ones, two of them of the same shape (the kit
// checks the Cluster's Shape on them) and one larger than the cluster,
// which the Cluster's MayFit rules out (the kit checks that Place then
// refuses it). Every call returns the same state.
func newExampleCluster() *cluster.Model {
	c, err := cluster.New([]cluster.Node{
		{Name: "node-a", Capacity: cluster.Resources{GPU: 8}},
		{Name: "node-b", Capacity: cluster.Resources{GPU: 8}},
	})
	if err != nil {
		panic(err)
	}
	for _, j := range []struct {
		id   string
		gpus []int64
		run  bool
	}{
		{"train", []int64{4, 4, 4}, true},
		{"batch", []int64{2}, true},
		{"serve", []int64{4, 4}, false},
		{"notebook", []int64{1}, false},
		{"notebook-2", []int64{1}, false},
		{"sweep", []int64{8, 8, 8}, false},
	} {
		var tasks []cluster.Resources
		for _, g := range j.gpus {
			tasks = append(tasks, cluster.Resources{GPU: g})
		}
		if err := c.AddJob(nil, cluster.Job{ID: j.id, Tasks: tasks}); err != nil {
			panic(err)
		}
		if j.run {
			if ok, err := c.Place(nil, j.id); !ok || err != nil {
				panic("setup")
			}
		}
	}
	return c
}

// An embedder checks its model from a test: a constructor, a state
// rendering, and the jobs that run and wait in a fresh model. In a test,
// report the error with t.Fatal(err).
func ExampleTestModel() {
	err := requeuetest.TestModel(
		newExampleCluster,
		func(c *cluster.Model) string { return fmt.Sprint(c.Snapshot()) },
		[]string{"train", "batch"},                           // running
		[]string{"serve", "notebook", "notebook-2", "sweep"}, // pending
	)
	fmt.Println("reference Cluster:", err)
	// Output:
	// reference Cluster: <nil>
}

// tally is a broken model: beside the Cluster it counts the evictions,
// and the count is part of its state, but its Evict records only the
// Cluster's undo steps, so a rollback leaves the count behind.
type tally struct {
	*cluster.Model
	evictions int
}

func (t *tally) Evict(j *requeue.Journal, job string) error {
	if err := t.Model.Evict(j, job); err != nil {
		return err
	}
	t.evictions++ // no undo step recorded for this
	return nil
}

// A model that forgets an undo step fails. The report says what went
// wrong, how to replay it, the state the rollback should have restored and
// the one it left, and the operations that led there.
func ExampleTestModel_forgottenUndo() {
	err := requeuetest.TestModel(
		func() *tally { return &tally{Model: newExampleCluster()} },
		func(t *tally) string { return fmt.Sprintf("evictions=%d %v", t.evictions, t.Snapshot()) },
		[]string{"train", "batch"},
		[]string{"serve", "notebook", "notebook-2"},
	)
	fmt.Println(err)
	// Output:
	// requeuetest: undoing Evict("train") did not restore the state: a change was not recorded, or an undo step is wrong
	// seed 1, sequence 0, step 4 (replay with requeuetest.Options{Seed: 1})
	// want state:
	//     evictions=0 {map[node-a:cpu=0m mem=0 gpu=0 node-b:cpu=0m mem=0 gpu=2] map[batch:[node-b] notebook:[] notebook-2:[] serve:[ ] sweep:[  ] train:[node-a node-a node-b]]}
	// got state:
	//     evictions=1 {map[node-a:cpu=0m mem=0 gpu=0 node-b:cpu=0m mem=0 gpu=2] map[batch:[node-b] notebook:[] notebook-2:[] serve:[ ] sweep:[  ] train:[node-a node-a node-b]]}
	// operations:
	//     1. checkpoint #0
	//     2. Evict("serve") [pending job] = cluster: evict: job "serve" is not running
	//     3. checkpoint #1
	//     4. checkpoint #2
	//     5. Evict("train") [running job] = <nil>
	//     6. rollback to before Evict("train")
}
