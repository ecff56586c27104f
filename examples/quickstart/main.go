// Quickstart walks one scheduling cycle through tenure's policies on a tiny
// in-memory cluster and prints each decision in plain words:
//
//  1. build a queue tree and a min-runtime resolver;
//  2. check a reclaim victim (protected, with its explanation and Until),
//     and one whose queue was never set (denied: tenure fails closed);
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
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
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

// walkthrough is the state the steps share: one instant, read once per
// cycle as a scheduler reads its clock, and what earlier steps built.
type walkthrough struct {
	w        io.Writer
	now      time.Time
	resolver *runtime.Resolver
	queue    map[string]queuetree.ID // every queue's ID, looked up once
	filter   minruntime.Filter
	counter  counter // one counter for every component, by source
	noms     expectedruntime.Result
}

// run writes the walkthrough to w, one step after the other.
func run(w io.Writer) error {
	q := &walkthrough{w: w, now: time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)}
	fmt.Fprintln(w, "cycle at", hm(q.now))
	for _, step := range []func() error{q.buildTree, q.checkVictims, q.validateScenario, q.nominate, q.requeue, q.backoff} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// hm formats an instant as the walkthrough prints it.
func hm(t time.Time) string { return t.Format("15:04") }

// buildTree is step 1: the queue tree and the min-runtime resolver, rebuilt
// when the queue snapshot changes; immutable, shared by every goroutine.
// Every queue ID is looked up here, and a name the tree lacks is an error:
// an ID left at its zero value would be queuetree.None, which every
// decision refuses (fail closed) rather than guess a queue.
func (q *walkthrough) buildTree() error {
	queues := []queuetree.Queue{
		{Name: "research"},
		{Name: "vision", Parent: "research"},
		{Name: "nlp", Parent: "research"},
		{Name: "prod"},
		{Name: "serving", Parent: "prod"},
	}
	tree, err := queuetree.New(queues)
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
	if q.resolver, err = runtime.NewResolver(tree, cfg); err != nil {
		return err
	}
	q.queue = map[string]queuetree.ID{}
	for _, name := range []string{"vision", "nlp", "serving"} {
		id, ok := tree.Lookup(name)
		if !ok {
			return fmt.Errorf("queue %q is not in the tree", name)
		}
		q.queue[name] = id
	}
	q.filter = minruntime.Filter{Resolver: q.resolver}
	fmt.Fprintf(q.w, "1. %d queues; %s inherits its reclaim protection from %s\n",
		len(queues), tree.Name(tree.Parent(q.queue["vision"]))+"/"+tree.Name(q.queue["vision"]),
		q.resolver.Resolve(runtime.ActionReclaim, q.queue["serving"], q.queue["vision"]).SourceName)
	return nil
}

// checkVictims is step 2: a serving job wants to reclaim GPUs from a vision
// training job that started 40 minutes ago; then the same check for a job
// whose Queue field was never set.
func (q *walkthrough) checkVictims() error {
	train := &eligibility.Job{ID: "vision/train-7", Queue: q.queue["vision"], Priority: 10, Preemptible: true,
		Running: true, Start: q.now.Add(-40 * time.Minute)}
	d := q.filter.Check(runtime.ActionReclaim, q.queue["serving"], train, q.now)
	fmt.Fprintf(q.w, "2. reclaim %s for prod/serving: allowed=%v (%s), until %s\n   because: %s\n",
		train.ID, d.Allowed, d.Reason, hm(d.Until), d.Resolution)
	lost := *train
	lost.ID, lost.Queue = "vision/train-8", queuetree.None // the field was forgotten
	d = q.filter.Check(runtime.ActionReclaim, q.queue["serving"], &lost, q.now)
	fmt.Fprintf(q.w, "2. reclaim %s, whose queue was never set: allowed=%v (%s)\n", lost.ID, d.Allowed, d.Reason)
	return nil
}

// validateScenario is step 3: an elastic nlp job (4 workers, at least 2)
// is still protected; a scenario that takes 3 of its workers would leave
// it below its minimum.
func (q *walkthrough) validateScenario() error {
	elastic := &eligibility.Job{ID: "nlp/elastic-ft", Queue: q.queue["nlp"], Priority: 10, Preemptible: true,
		Running: true, Start: q.now.Add(-10 * time.Minute),
		Subgroups: []eligibility.Subgroup{{Name: "workers", MinAvailable: 2, Active: 4}}}
	validator := minruntime.Validator{Resolver: q.resolver}
	worker := minruntime.Task{Subgroup: "workers", Active: true}
	for _, n := range []int{2, 3} {
		tasks := make([]minruntime.Task, n)
		for i := range tasks {
			tasks[i] = worker
		}
		sd, err := validator.Validate(runtime.ActionPreempt, q.queue["nlp"],
			[]minruntime.Victim{{Job: elastic, Tasks: tasks}}, q.now)
		if err != nil {
			return err
		}
		if sd.Allowed {
			fmt.Fprintf(q.w, "3. evicting %d of %s's workers: allowed (%s)\n", n, elastic.ID, sd.Reason)
		} else {
			fmt.Fprintf(q.w, "3. evicting %d of %s's workers: rejected, %s would keep %d < minAvailable %d while protected (until %s)\n",
				n, elastic.ID, sd.Subgroup, sd.Remaining, sd.MinAvailable, hm(sd.ProtectedUntil))
		}
	}
	return nil
}

// nominate is step 4: the expected-runtime nominator looks at running jobs
// that opted in.
func (q *walkthrough) nominate() error {
	job := func(id, queue string, ran time.Duration, annotations ...string) eligibility.Job {
		j := eligibility.Job{ID: id, Queue: q.queue[queue], Priority: 10, Preemptible: true, Running: true,
			Start: q.now.Add(-ran), Annotations: map[string]string{}}
		for i := 0; i+1 < len(annotations); i += 2 {
			j.Annotations[annotations[i]] = annotations[i+1]
		}
		return j
	}
	running := []eligibility.Job{
		job("vision/sweep-1", "vision", 5*time.Hour, expectedruntime.AnnotationExpectedRuntime, "4h"),
		job("nlp/eval-3", "nlp", 3*time.Hour, expectedruntime.AnnotationExpectedRuntime, "2h",
			eligibility.AnnotationRequeueNotBefore, "2026-03-02T12:30:00Z"),
		job("vision/notebook", "vision", time.Hour, expectedruntime.AnnotationExpectedRuntime, "1d"),
	}
	nominator := expectedruntime.Nominator{Observer: &q.counter}
	q.noms = nominator.Nominate(running, q.now)
	for _, n := range q.noms.Nominations {
		fmt.Fprintf(q.w, "4. nominated %s: ran %s past its expected %s\n", n.ID,
			runtime.FormatDuration(n.Overrun), runtime.FormatDuration(n.Expected))
	}
	for _, s := range q.noms.Skips {
		fmt.Fprintf(q.w, "4. skipped %s: %s until %s\n", s.Job, s.Reason, hm(s.Until))
	}
	fmt.Fprintf(q.w, "4. %d job(s) not yet over their expected runtime (silent); wake at %s, the earliest Until of all\n",
		q.noms.Silent, hm(q.noms.Wake))
	return nil
}

// requeue is step 5: the requeue engine virtually evicts the nominee, tries
// the pending higher-priority jobs (highest first), and commits or rolls
// back.
func (q *walkthrough) requeue() error {
	model, err := smallCluster()
	if err != nil {
		return err
	}
	engine, err := requeue.NewEngine(requeue.EngineConfig{
		DefaultDelay: 30 * time.Minute,
		Filters:      []requeue.VictimFilter{requeue.VictimMinRuntimeFilter{Filter: &q.filter}},
		Observer:     &q.counter,
	})
	if err != nil {
		return err
	}
	in := requeue.EngineInput{Nominated: q.noms.Nominations}
	in.Contenders = []requeue.Contender{
		{ID: "prod/train-xl", Priority: 100, Queue: q.queue["serving"], Queued: q.now.Add(-2 * time.Hour)},
		{ID: "prod/embed", Priority: 50, Queue: q.queue["serving"], Queued: q.now.Add(-time.Hour)},
	}
	res, err := engine.Run(q.now, in, model)
	if err != nil {
		return err
	}
	for _, o := range res.Outcomes {
		switch o.Kind {
		case requeue.OutcomeCommitted:
			fmt.Fprintf(q.w, "5. %s: committed: evict it, %v runs in its place; write %s=%s\n",
				o.Job, o.Contenders, eligibility.AnnotationRequeueNotBefore, o.Annotation)
		case requeue.OutcomeSkipped:
			fmt.Fprintf(q.w, "5. %s: skipped (%s) until %s\n", o.Job, o.Reason, hm(o.Until))
		default:
			fmt.Fprintf(q.w, "5. %s: %s (%s)\n", o.Job, o.Kind, o.Reason)
		}
	}
	fmt.Fprintf(q.w, "5. %d placement attempt(s), %d rolled back (prod/train-xl cannot use the room vision/sweep-1 would free: it needs 8 GPUs on one node, and only 4 would be free there, so the model's fit bound ruled that eviction out before any attempt)\n",
		res.Attempts, q.counter.Count(engine.Config().Name, requeue.ReasonRolledBack))
	return nil
}

// smallCluster is step 5's cluster: two 8-GPU nodes, three running jobs
// and two pending ones.
func smallCluster() (*cluster.Model, error) {
	model, err := cluster.New([]cluster.Node{
		{Name: "gpu-1", Capacity: cluster.Resources{GPU: 8}},
		{Name: "gpu-2", Capacity: cluster.Resources{GPU: 8}},
	})
	if err != nil {
		return nil, err
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
			return nil, err
		}
		if !j.running {
			continue
		}
		if _, err := model.Place(nil, j.job.ID); err != nil {
			return nil, err
		}
	}
	return model, nil
}

// backoff is step 6: requeue backoff (Kueue KEP-1282): a job evicted for
// not becoming ready in time waits base·2^(n-1), capped.
func (q *walkthrough) backoff() error {
	limit := 3
	policy := backoff.Config{Base: time.Minute, Max: time.Hour, Limit: &limit}
	var state backoff.State
	for i := 0; i < 4; i++ {
		next, deactivated := state.Timeout(policy, q.now, 0)
		if deactivated {
			fmt.Fprintf(q.w, "6. readiness timeout #%d: limit reached, job deactivated\n", i+1)
			break
		}
		state = next
		_, until := state.Admissible(q.now)
		fmt.Fprintf(q.w, "6. readiness timeout #%d: requeue #%d, admissible at %s\n", i+1, state.Count, hm(until))
	}
	return nil
}
