// Quickstart runs one scheduling cycle through tenure.Policy on a tiny
// in-memory cluster and prints each of tenure's decisions as it is made.
// main_test.go checks the output; the README shows this file.
package main

import (
	"fmt"
	"io"
	"log"
	"os"
	"time"

	"github.com/tenurepolicy/tenure"
	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
	tenureruntime "github.com/tenurepolicy/tenure/runtime" // the standard library has a runtime too
)

func main() {
	if err := run(os.Stdout); err != nil {
		log.Fatal(err)
	}
}

func run(w io.Writer) error {
	noon := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	policy, err := tenure.New(tenure.Config{
		Queues: []tenure.Queue{ // KAI-Scheduler's Queue fields, in their string form
			{Name: "research", ReclaimMinRuntime: "2h"},
			{Name: "vision", Parent: "research"}, // unset: inherits research's 2h
			{Name: "nlp", Parent: "research", PreemptMinRuntime: "30m"},
			{Name: "prod"},
			{Name: "serving", Parent: "prod"},
		},
		MinRuntimeArgs: map[string]string{"defaultPreemptMinRuntime": "5m"}, // KAI plugin arguments
		Engine:         requeue.EngineConfig{DefaultDelay: 30 * time.Minute},
		Clock:          clock.Func(func() time.Time { return noon }), // nil: the wall clock
		Observer: eligibility.ObserverFunc(func(e eligibility.Event) { // your metrics go here
			if e.Other != "" {
				e.Job += " for " + e.Other // a rolled-back attempt names the waiting job it tried
			}
			fmt.Fprintf(w, "   observed %s: %s %s\n", e.Source, e.Job, e.Decision)
		}),
	})
	if err != nil {
		return err // every configuration problem at once
	}
	ids := map[string]queuetree.ID{}
	for _, name := range []string{"vision", "nlp", "serving"} {
		if ids[name], err = policy.QueueID(name); err != nil {
			return err // a mistyped name is an error, never "no protection"
		}
	}

	cycle := policy.Begin() // reads the clock once: every decision below sees cycle.Now()
	now := cycle.Now()
	job := func(id, queue string, ran time.Duration, expected string) eligibility.Job {
		return eligibility.Job{ID: id, Queue: ids[queue], Priority: 10, Preemptible: true, Running: true,
			Start: now.Add(-ran), Annotations: map[string]string{expectedruntime.AnnotationExpectedRuntime: expected}}
	}
	running := []eligibility.Job{
		job("vision/train-7", "vision", 40*time.Minute, "1d"),
		job("nlp/finetune", "nlp", 40*time.Minute, "1h"),
		job("vision/sweep-1", "vision", 5*time.Hour, "4h"), // 1h past what it said
	}
	fmt.Fprintf(w, "cycle at %s\n", now.Format("15:04"))

	// Preempt and reclaim: one O(1), allocation-free question per victim.
	d := cycle.CheckVictim(tenureruntime.ActionReclaim, ids["serving"], &running[0])
	fmt.Fprintf(w, "1. serving reclaims %s? %s\n   because: %s\n", running[0].ID, d.Decision, d.Resolution)
	d = cycle.CheckVictim(tenureruntime.ActionPreempt, ids["nlp"], &running[1])
	fmt.Fprintf(w, "2. nlp preempts %s? %s\n   because: %s\n", running[1].ID, d.Decision, d.Resolution)
	lost := running[0]
	lost.Queue = queuetree.None // the field was never set
	d = cycle.CheckVictim(tenureruntime.ActionReclaim, ids["serving"], &lost)
	fmt.Fprintf(w, "3. serving reclaims a job with no queue? %s: fail closed\n", d.Decision)

	// Requeue: nominate the jobs past their expected runtime; the engine evicts each in
	// the model, tries the waiting jobs of higher priority, and commits or rolls back.
	model, err := newModel(running)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "4. requeue:")
	res, err := cycle.Requeue(tenure.RequeueInput{
		Running: running,
		Contenders: []requeue.Contender{
			{ID: "prod/train-xl", Priority: 100, Queue: ids["serving"], Queued: now.Add(-2 * time.Hour)},
			{ID: "prod/embed", Priority: 50, Queue: ids["serving"], Queued: now.Add(-time.Hour)},
		},
	}, model) // your scheduler's state implements requeue.Model
	if err != nil {
		return err // a model that broke its contract; a job's bad data is an outcome
	}
	for _, o := range res.Engine.Outcomes { // the Observer saw every outcome; act on the commits
		if o.Kind == requeue.OutcomeCommitted { // the model has changed: evict the job for real
			fmt.Fprintf(w, "   evict %s for %v, not to run again before %s\n", o.Job, o.Contenders, o.Annotation)
		}
	}
	fmt.Fprintln(w, "5. wake at", cycle.Wake().Format("15:04"), "(nlp/finetune reaches its expected 1h): no decision above changes before")
	return nil
}

// newModel is the scheduler's state: two 8-GPU nodes, the running jobs
// placed, two jobs waiting. tenure's reference model stands in for yours.
func newModel(running []eligibility.Job) (*cluster.Model, error) {
	eight := cluster.Resources{GPU: 8}
	model, err := cluster.New([]cluster.Node{{Name: "gpu-1", Capacity: eight}, {Name: "gpu-2", Capacity: eight}})
	if err != nil {
		return nil, err
	}
	for _, j := range []cluster.Job{
		{ID: "vision/sweep-1", Tasks: []cluster.Resources{{GPU: 4}}}, // gpu-1
		{ID: "nlp/finetune", Tasks: []cluster.Resources{{GPU: 4}}},   // gpu-1
		{ID: "vision/train-7", Tasks: []cluster.Resources{{GPU: 8}}}, // gpu-2
		{ID: "prod/train-xl", Tasks: []cluster.Resources{{GPU: 8}}},  // waiting: a whole node
		{ID: "prod/embed", Tasks: []cluster.Resources{{GPU: 4}}},     // waiting: half a node
	} {
		if err := model.AddJob(nil, j); err != nil {
			return nil, err
		}
	}
	for _, j := range running {
		if _, err := model.Place(nil, j.ID); err != nil {
			return nil, err
		}
	}
	return model, nil
}
