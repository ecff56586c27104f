// Quickstart walks one scheduling cycle through tenure's policies on a tiny
// in-memory cluster and prints each decision in plain words:
//
//  1. build a queue tree and a min-runtime resolver;
//  2. check a reclaim victim (protected, with its explanation and Until);
//  3. validate an elastic eviction scenario;
//  4. nominate jobs that overran their expected runtime;
//  5. run the requeue engine (one rollback, then one commit);
//  6. compute a requeue backoff.
//
// Run it with:
//
//	go run ./examples/quickstart
//
// Its output is checked by main_test.go, so it cannot silently rot.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/backoff"
	"github.com/tenurepolicy/tenure/requeue/cluster"
	"github.com/tenurepolicy/tenure/runtime"
)

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

// run writes the walkthrough to w. Every instant derives from one fixed
// "now", read once per cycle as a scheduler would read its clock.
func run(w io.Writer) error {
	now := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	clock := func(t time.Time) string { return t.Format("15:04") }
	fmt.Fprintln(w, "cycle at", clock(now))

	// 1. Queue tree and min-runtime resolver (rebuilt when the queue
	// snapshot changes; immutable, shared by every goroutine).
	tree, err := queuetree.New([]queuetree.Queue{
		{Name: "research"},
		{Name: "vision", Parent: "research"},
		{Name: "nlp", Parent: "research"},
		{Name: "prod"},
		{Name: "serving", Parent: "prod"},
	})
	if err != nil {
		return err
	}
	cfg, err := runtime.ParseConfig(
		map[string]string{"defaultPreemptMinRuntime": "5m", "reclaimResolveMethod": "lca"},
		[]runtime.QueueFields{
			{Name: "research", ReclaimMinRuntime: "2h"},
			{Name: "nlp", PreemptMinRuntime: "30m"},
		})
	if err != nil {
		return err
	}
	resolver, err := runtime.NewResolver(tree, cfg)
	if err != nil {
		return err
	}
	id := func(name string) queuetree.ID { q, _ := tree.Lookup(name); return q }
	fmt.Fprintf(w, "1. %d queues; %s inherits its reclaim protection from %s\n",
		tree.Len()-1, strings.Join(tree.Path(id("vision")), "/"), resolver.Reclaim(id("serving"), id("vision")).SourceName)

	// 2. A serving job wants to reclaim GPUs from a vision training job
	// that started 40 minutes ago.
	filter := eligibility.MinRuntimeFilter{Resolver: resolver}
	train := &eligibility.Job{ID: "vision/train-7", Queue: id("vision"), Priority: 10, Preemptible: true,
		Running: true, Start: now.Add(-40 * time.Minute)}
	d := filter.Check(runtime.ActionReclaim, id("serving"), train, now)
	fmt.Fprintf(w, "2. reclaim %s for prod/serving: allowed=%v (%s), until %s\n   because: %s\n",
		train.ID, d.Allowed, d.Reason, clock(d.Until), d.Resolution)

	// 3. An elastic nlp job (4 workers, at least 2) is still protected; a
	// scenario that takes 3 of its workers would leave it below its minimum.
	elastic := &eligibility.Job{ID: "nlp/elastic-ft", Queue: id("nlp"), Priority: 10, Preemptible: true,
		Running: true, Start: now.Add(-10 * time.Minute),
		Subgroups: []eligibility.Subgroup{{Name: "workers", MinAvailable: 2, Active: 4}}}
	var validator eligibility.ScenarioValidator
	validator.Resolver = resolver
	worker := eligibility.ScenarioTask{Subgroup: "workers", Active: true}
	for _, n := range []int{2, 3} {
		tasks := make([]eligibility.ScenarioTask, n)
		for i := range tasks {
			tasks[i] = worker
		}
		sd, err := validator.Validate(runtime.ActionPreempt, id("nlp"),
			[]eligibility.ScenarioJob{{Job: elastic, Tasks: tasks}}, now)
		if err != nil {
			return err
		}
		if sd.Allowed {
			fmt.Fprintf(w, "3. evicting %d of %s's workers: allowed (%s)\n", n, elastic.ID, sd.Reason)
		} else {
			fmt.Fprintf(w, "3. evicting %d of %s's workers: rejected, %s would keep %d < minAvailable %d while protected (until %s)\n",
				n, elastic.ID, sd.Subgroup, sd.Remaining, sd.MinAvailable, clock(sd.ProtectedUntil))
		}
	}

	// 4. The expected-runtime nominator looks at running jobs that opted in.
	running := []eligibility.Job{
		{ID: "vision/sweep-1", Queue: id("vision"), Priority: 10, Preemptible: true, Running: true,
			Start: now.Add(-5 * time.Hour), Annotations: map[string]string{eligibility.AnnotationExpectedRuntime: "4h"}},
		{ID: "nlp/eval-3", Queue: id("nlp"), Priority: 10, Preemptible: true, Running: true,
			Start: now.Add(-3 * time.Hour), Annotations: map[string]string{
				eligibility.AnnotationExpectedRuntime: "2h", eligibility.AnnotationRequeueNotBefore: "2026-03-02T12:30:00Z"}},
		{ID: "vision/notebook", Queue: id("vision"), Priority: 10, Preemptible: true, Running: true,
			Start: now.Add(-time.Hour), Annotations: map[string]string{eligibility.AnnotationExpectedRuntime: "1d"}},
	}
	var counter eligibility.Counter
	nominator := eligibility.Nominator{Observer: &counter}
	noms := nominator.Nominate(running, now)
	for _, n := range noms.Nominations {
		fmt.Fprintf(w, "4. nominated %s: ran %s past its expected %s\n", n.Job,
			runtime.FormatDuration(n.Overrun), runtime.FormatDuration(n.Expected))
	}
	for _, s := range noms.Skips {
		fmt.Fprintf(w, "4. skipped %s: %s until %s\n", s.Job, s.Reason, clock(s.Until))
	}
	fmt.Fprintf(w, "4. %d job(s) not yet over their expected runtime (silent); wake at %s, the earliest Until of all\n", noms.Silent, clock(noms.Wake))

	// 5. The requeue engine: virtually evict the nominee, try the pending
	// higher-priority jobs (highest first), commit or roll back.
	model, err := cluster.New([]cluster.Node{
		{Name: "gpu-1", Capacity: cluster.Resources{GPU: 8}},
		{Name: "gpu-2", Capacity: cluster.Resources{GPU: 8}},
	})
	if err != nil {
		return err
	}
	gpus := func(n int64) []cluster.Resources { return []cluster.Resources{{GPU: n}} }
	for _, j := range []struct {
		job     cluster.Job
		running bool
	}{
		{cluster.Job{ID: "vision/sweep-1", Tasks: gpus(4)}, true}, // gpu-1
		{cluster.Job{ID: "nlp/batch", Tasks: gpus(4)}, true},      // gpu-1
		{cluster.Job{ID: "prod/indexer", Tasks: gpus(8)}, true},   // gpu-2
		{cluster.Job{ID: "prod/train-xl", Tasks: gpus(8)}, false}, // pending: needs a whole node
		{cluster.Job{ID: "prod/embed", Tasks: gpus(4)}, false},    // pending: needs half a node
	} {
		if err := model.AddJob(nil, j.job); err != nil {
			return err
		}
		if j.running {
			if _, err := model.Place(nil, j.job.ID); err != nil {
				return err
			}
		}
	}
	engine, err := requeue.NewEngine(requeue.EngineConfig{
		DefaultDelay: 30 * time.Minute,
		Filters:      []requeue.VictimFilter{requeue.VictimMinRuntimeFilter{Filter: &filter}},
		Observer:     &counter, // one Counter for every component, by source
	})
	if err != nil {
		return err
	}
	var in requeue.EngineInput
	in.AddNominations(noms.Nominations)
	in.Contenders = []requeue.Contender{
		{ID: "prod/train-xl", Priority: 100, Queue: id("serving"), Queued: now.Add(-2 * time.Hour)},
		{ID: "prod/embed", Priority: 50, Queue: id("serving"), Queued: now.Add(-time.Hour)},
	}
	res, err := engine.Run(now, in, model)
	if err != nil {
		return err
	}
	for _, o := range res.Outcomes {
		switch o.Kind {
		case requeue.OutcomeCommitted:
			fmt.Fprintf(w, "5. %s: committed: evict it, %v runs in its place; write %s=%s\n",
				o.Job, o.Contenders, eligibility.AnnotationRequeueNotBefore, o.Annotation)
		case requeue.OutcomeSkipped:
			fmt.Fprintf(w, "5. %s: skipped (%s) until %s\n", o.Job, o.Reason, clock(o.Until))
		default:
			fmt.Fprintf(w, "5. %s: %s (%s)\n", o.Job, o.Kind, o.Reason)
		}
	}
	fmt.Fprintf(w, "5. %d placement attempt(s), %d rolled back (prod/train-xl needs 8 GPUs and only 4 free up: the fit check rules it out without an attempt)\n",
		res.Attempts, counter.Count(requeue.DefaultEngineName, requeue.ReasonRolledBack))

	// 6. Requeue backoff (Kueue KEP-1282): a job evicted for not becoming
	// ready in time waits base·2^(n-1), capped.
	policy := backoff.Config{Base: time.Minute, Max: time.Hour, Limit: backoff.Limit(3)}
	var state backoff.State
	for i := 0; i < 4; i++ {
		next, deactivated := state.Timeout(policy, now, 0)
		if deactivated {
			fmt.Fprintf(w, "6. readiness timeout #%d: limit reached, job deactivated\n", i+1)
			break
		}
		state = next
		_, until := state.Admissible(now)
		fmt.Fprintf(w, "6. readiness timeout #%d: requeue #%d, admissible at %s\n", i+1, state.Count, clock(until))
	}
	return nil
}
