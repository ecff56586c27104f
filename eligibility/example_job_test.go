package eligibility_test

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/queuetree"
)

// podGroup stands for a scheduler's own job object (a KAI PodGroupInfo, a
// Kueue Workload, ...). tenure never sees it.
type podGroup struct {
	Namespace, Name   string
	Queue             string
	Priority          int32
	Preemptibility    string // "Preemptible" or "NonPreemptible"
	LastStartTime     *time.Time
	ActiveAllocated   int
	MinMembers        map[string]int32 // per subgroup
	ActiveBySubgroup  map[string]int32
	SubgroupsInOrder  []string
	ObjectAnnotations map[string]string
}

// toJob is the whole conversion: a few field copies, done once per cycle.
func toJob(pg *podGroup, tree *queuetree.Tree) eligibility.Job {
	j := eligibility.Job{
		ID:          pg.Name + "/" + pg.Namespace, // KAI's expected-runtime log format: job=training-job/default
		Queue:       queuetree.None,
		Priority:    pg.Priority,
		Preemptible: pg.Preemptibility == "Preemptible",
		Running:     pg.ActiveAllocated > 0,
		Annotations: pg.ObjectAnnotations,
	}
	if id, ok := tree.Lookup(pg.Queue); ok {
		j.Queue = id
	}
	if pg.LastStartTime != nil {
		j.Start = *pg.LastStartTime
	}
	for _, name := range pg.SubgroupsInOrder {
		j.Subgroups = append(j.Subgroups, eligibility.Subgroup{
			Name: name, MinAvailable: pg.MinMembers[name], Active: pg.ActiveBySubgroup[name],
		})
	}
	return j
}

// ExampleJob converts a scheduler's PodGroup-like object into a Job.
func ExampleJob() {
	tree, _ := queuetree.New([]queuetree.Queue{{Name: "training"}})
	started := time.Date(2025, 1, 15, 8, 0, 0, 0, time.UTC)
	pg := &podGroup{
		Namespace: "default", Name: "training-job", Queue: "training", Priority: 50,
		Preemptibility: "Preemptible", LastStartTime: &started, ActiveAllocated: 5,
		SubgroupsInOrder:  []string{"driver", "workers"},
		MinMembers:        map[string]int32{"driver": 1, "workers": 2},
		ActiveBySubgroup:  map[string]int32{"driver": 1, "workers": 4},
		ObjectAnnotations: map[string]string{expectedruntime.AnnotationExpectedRuntime: "4h"},
	}
	j := toJob(pg, tree)
	fmt.Println(j.ID, tree.Name(j.Queue), j.Preemptible, j.Running, len(j.Subgroups))
	// Output:
	// training-job/default training true true 2
}
