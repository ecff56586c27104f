package tenure_test

import (
	"fmt"
	"log"
	"time"

	"github.com/tenurepolicy/tenure"
	"github.com/tenurepolicy/tenure/clock/clocktest"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
	tenureruntime "github.com/tenurepolicy/tenure/runtime" // the standard library has a runtime too
)

// ExamplePolicy is the README's embedding section: one Config, validated at
// once; one Begin per scheduling cycle (one clock read); the min-runtime
// check of a reclaim; the requeue half of the cycle against the scheduler's
// own state (here the reference cluster.Model); and the instant to wake
// up. readme_test.go fails if the README's code block and this file's
// imports and body drift apart.
func ExamplePolicy() {
	var metrics counter // or your own eligibility.Observer
	policy, err := tenure.New(tenure.Config{
		Queues: []tenure.Queue{
			{Name: "research", ReclaimMinRuntime: "2h"}, // KAI queue fields, string form
			{Name: "prod"},
		},
		MinRuntimeArgs: map[string]string{"defaultPreemptMinRuntime": "10m"}, // KAI plugin args
		Engine:         requeue.EngineConfig{DefaultDelay: 30 * time.Minute},
		Clock:          clocktest.New(time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)), // nil: wall clock
		Observer:       &metrics,
	})
	if err != nil {
		log.Fatal(err) // every configuration problem, joined
	}
	research, err := policy.QueueID("research") // a mistyped name is an error, never "no protection"
	if err != nil {
		log.Fatal(err)
	}
	prod, err := policy.QueueID("prod")
	if err != nil {
		log.Fatal(err)
	}

	cycle := policy.Begin() // reads the clock once: every decision below sees cycle.Now()
	now := cycle.Now()
	train := eligibility.Job{ID: "train", Queue: research, Priority: 1, Preemptible: true, Running: true,
		Start: now.Add(-90 * time.Minute), Annotations: map[string]string{expectedruntime.AnnotationExpectedRuntime: "1h"}}
	notebook := eligibility.Job{ID: "notebook", Queue: research, Priority: 1, Preemptible: true, Running: true,
		Start: now.Add(-3 * time.Hour), Annotations: map[string]string{expectedruntime.AnnotationExpectedRuntime: "2h"}}

	// Preempt/reclaim actions: an O(1), allocation-free check per victim.
	d := cycle.CheckVictim(tenureruntime.ActionReclaim, prod, &train)
	fmt.Println("reclaim train:", d.Decision)

	// Requeue: nominate over-runners; the engine virtually evicts each and
	// tries strictly higher-priority pending work, committing or rolling back.
	model, err := cluster.New([]cluster.Node{{Name: "n1", Capacity: cluster.Resources{GPU: 8}}})
	if err != nil {
		log.Fatal(err)
	}
	for _, j := range []cluster.Job{
		{ID: "train", Tasks: []cluster.Resources{{GPU: 4}}},
		{ID: "notebook", Tasks: []cluster.Resources{{GPU: 4}}},
		{ID: "serve", Tasks: []cluster.Resources{{GPU: 4}}},
		{ID: "batch", Tasks: []cluster.Resources{{GPU: 4}}},
	} {
		if err := model.AddJob(nil, j); err != nil {
			log.Fatal(err)
		}
	}
	for _, running := range []string{"train", "notebook"} {
		if _, err := model.Place(nil, running); err != nil {
			log.Fatal(err)
		}
	}
	res, err := cycle.Requeue(tenure.RequeueInput{
		Running: []eligibility.Job{train, notebook},
		Contenders: []requeue.Contender{
			{ID: "serve", Priority: 9, Queue: prod, Queued: now.Add(-time.Minute)},
			{ID: "batch", Priority: 5, Queue: prod, Queued: now.Add(-time.Minute)},
		},
	}, model) // your scheduler's state implements requeue.Model
	if err != nil {
		log.Fatal(err) // a model that broke its contract; per-job problems are outcomes
	}
	for _, o := range res.Engine.Outcomes {
		if o.Kind == requeue.OutcomeCommitted {
			// The engine already applied the change to the model: evict the
			// job for real and persist its cooldown annotation.
			fmt.Println("evict", o.Job, "for", o.Contenders, "not before", o.Annotation)
		} else {
			fmt.Println("keep", o.Job+":", o.Decision)
		}
	}
	fmt.Println("wake at:", cycle.Wake().Format(time.Kitchen))
	for _, s := range metrics.Samples() {
		fmt.Println(s)
	}
	// Output:
	// reclaim train: denied (minruntime_protected) until 2026-03-02T12:30:00Z
	// evict notebook for [serve] not before 2026-03-02T12:30:00Z
	// keep train: denied (minruntime_protected) until 2026-03-02T12:30:00Z
	// wake at: 12:30PM
	// tenure_decisions_total{source="expectedruntime",reason="nominated"} 2
	// tenure_decisions_total{source="requeue",reason="committed"} 1
	// tenure_decisions_total{source="requeue",reason="minruntime_protected"} 1
	// tenure_decisions_total{source="requeue",reason="rolled_back"} 2
}
