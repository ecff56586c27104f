package tenure_test

import (
	"fmt"
	"log"
	"time"

	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
	"github.com/tenurepolicy/tenure/runtime"
)

// Example builds the pieces one by one, as a fork that integrates tenure
// piece by piece would (ExamplePolicy does the same through the composed
// Policy): read the clock once, build the tree and resolver per queue
// snapshot, filter victims, nominate over-running jobs, run the requeue
// engine (with the min-runtime filter) against the scheduler's own state
// model, and persist what it decided.
func Example() {
	must := func(err error) {
		if err != nil {
			log.Fatal(err)
		}
	}
	var clk clock.Clock = clock.Func(func() time.Time { return time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC) })
	now := clk.Now() // once per cycle: every decision sees the same instant

	// Per queue snapshot (immutable, shareable across goroutines).
	tree, err := queuetree.New([]queuetree.Queue{{Name: "research"}, {Name: "prod"}})
	must(err)
	cfg, err := runtime.ParseConfig(map[string]string{"defaultReclaimMinRuntime": "1h"}, nil)
	must(err)
	resolver, err := runtime.NewResolver(tree, cfg)
	must(err)
	research, ok := tree.Lookup("research") // a miss would mean "no protection": check it
	prod, ok2 := tree.Lookup("prod")
	if !ok || !ok2 {
		log.Fatal("unknown queue")
	}

	// Preempt/reclaim actions: an O(1), allocation-free check per victim.
	filter := minruntime.Filter{Resolver: resolver}
	job := eligibility.Job{ID: "train", Queue: research, Priority: 1, Preemptible: true, Running: true,
		Start: now.Add(-5 * time.Hour), Annotations: map[string]string{expectedruntime.AnnotationExpectedRuntime: "4h"}}
	fmt.Println("reclaim allowed:", filter.Check(runtime.ActionReclaim, prod, &job, now).Allowed)

	// Requeue: nominate over-runners, then let the engine try strictly
	// higher-priority pending work in their place (commit or roll back).
	noms := (&expectedruntime.Nominator{}).Nominate([]eligibility.Job{job}, now)
	in := requeue.EngineInput{Nominated: noms.Nominations}
	in.Contenders = []requeue.Contender{{ID: "serve", Priority: 9, Queue: prod, Queued: now.Add(-time.Minute)}}

	model, err := cluster.New([]cluster.Node{{Name: "n1", Capacity: cluster.Resources{GPU: 8}}})
	must(err)
	must(model.AddJob(nil, cluster.Job{ID: "train", Tasks: []cluster.Resources{{GPU: 8}}}))
	_, err = model.Place(nil, "train")
	must(err)
	must(model.AddJob(nil, cluster.Job{ID: "serve", Tasks: []cluster.Resources{{GPU: 4}}}))

	// Without the min-runtime filter the engine would requeue protected jobs.
	engine, err := requeue.NewEngine(requeue.EngineConfig{DefaultDelay: 30 * time.Minute,
		Filters: []requeue.VictimFilter{requeue.VictimMinRuntimeFilter{Filter: &filter}}})
	must(err)
	res, err := engine.Run(now, in, model) // your scheduler's state implements requeue.Model
	must(err)
	for _, o := range res.Outcomes {
		// The engine already applied the change to its model; the embedder
		// performs the eviction and writes the annotation.
		fmt.Println(o.Job, o.Kind, o.Contenders, eligibility.AnnotationRequeueNotBefore+"="+o.Annotation)
	}
	// Output:
	// reclaim allowed: true
	// train committed [serve] kai.scheduler/requeue-not-before=2026-03-02T12:30:00Z
}
