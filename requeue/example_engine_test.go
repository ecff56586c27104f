package requeue_test

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
	"github.com/tenurepolicy/tenure/runtime"
)

// One requeue pass: two overrunning jobs are nominated, one pending
// higher-priority job is waiting. The engine skips a job in cooldown and
// evicts the job whose eviction lets the pending one run. The other one,
// whose node is searched first because it has run less (it is cheaper to
// evict), frees too little there (its neighbour is in cooldown): it keeps
// running with "no_fit".
func ExampleEngine() {
	now := time.Date(2025, 1, 15, 12, 0, 0, 0, time.UTC)
	gpus := func(n int64) []cluster.Resources { return []cluster.Resources{{GPU: n}} }

	c, _ := cluster.New([]cluster.Node{
		{Name: "n1", Capacity: cluster.Resources{GPU: 8}},
		{Name: "n2", Capacity: cluster.Resources{GPU: 8}},
	})
	for _, j := range []cluster.Job{
		{ID: "batch-a", Tasks: gpus(8)}, // n1
		{ID: "batch-b", Tasks: gpus(4)}, // n2
		{ID: "batch-c", Tasks: gpus(4)}, // n2
	} {
		_ = c.AddJob(nil, j)
		_, _ = c.Place(nil, j.ID)
	}
	_ = c.AddJob(nil, cluster.Job{ID: "urgent", Tasks: gpus(6)}) // pending

	e, _ := requeue.NewEngine(requeue.EngineConfig{DefaultDelay: 30 * time.Minute})
	res, _ := e.Run(now, requeue.EngineInput{
		Nominations: []requeue.VictimNomination{
			{Job: "batch-b", Nominator: "expectedruntime"},
			{Job: "batch-a", Nominator: "expectedruntime"},
			{Job: "batch-a", Nominator: "proportion"},
			{Job: "batch-c", Nominator: "expectedruntime"},
		},
		Victims: []requeue.Victim{
			{ID: "batch-a", Priority: 10, Start: now.Add(-5 * time.Hour), Expected: 4 * time.Hour},
			{ID: "batch-b", Priority: 10, Start: now.Add(-3 * time.Hour), Expected: 2 * time.Hour,
				RequeueDelay: 10 * time.Minute, HasRequeueDelay: true},
			{ID: "batch-c", Priority: 10, NotBefore: now.Add(15 * time.Minute)},
		},
		Contenders: []requeue.Contender{{ID: "urgent", Priority: 100, Queued: now.Add(-time.Hour)}},
	}, c)

	for _, o := range res.Outcomes {
		fmt.Printf("%s %v: %s %s", o.Job, o.Nominators, o.Kind, o.Reason)
		switch o.Kind {
		case requeue.OutcomeCommitted:
			fmt.Printf(", placed %v, %s=%s", o.Contenders, eligibility.AnnotationRequeueNotBefore, o.Annotation)
		case requeue.OutcomeSkipped:
			fmt.Printf(" until %s", o.Until.Format(time.Kitchen))
		}
		fmt.Println()
	}
	fmt.Println("urgent runs on", c.Snapshot().Jobs["urgent"])
	// Output:
	// batch-c [expectedruntime]: skipped cooldown until 12:15PM
	// batch-a [expectedruntime proportion]: committed committed, placed [urgent], kai.scheduler/requeue-not-before=2025-01-15T12:30:00Z
	// batch-b [expectedruntime]: kept cheaper_set
	// urgent runs on [n1]
}

// The min-runtime filter of package eligibility, as a victim filter: a pair
// in the same leaf queue resolves the preempt min-runtime, a pair across
// queues the reclaim one. A denied victim says until when.
func ExampleVictimMinRuntimeFilter() {
	tree, _ := queuetree.New([]queuetree.Queue{{Name: "research"}, {Name: "prod"}})
	preempt, reclaim := time.Hour, 10*time.Minute
	resolver, _ := runtime.NewResolver(tree, runtime.Config{
		Queues: []runtime.QueueSetting{{Queue: "research", Preempt: &preempt, Reclaim: &reclaim}},
	})
	filter := requeue.VictimMinRuntimeFilter{Filter: &minruntime.Filter{Resolver: resolver}}

	research, _ := tree.Lookup("research")
	prod, _ := tree.Lookup("prod")
	start := time.Date(2025, 1, 15, 10, 0, 0, 0, time.UTC)
	now := start.Add(30 * time.Minute)
	victim := &requeue.Victim{ID: "sweep", Queue: research, Start: start}
	for _, c := range []*requeue.Contender{{ID: "colleague", Queue: research}, {ID: "prod-job", Queue: prod}} {
		v := filter.FilterVictim(now, victim, c)
		fmt.Printf("%s: allowed=%v reason=%s", c.ID, v.Allowed, v.Reason)
		if !v.Until.IsZero() {
			fmt.Printf(" until=%s", v.Until.Format(time.Kitchen))
		}
		fmt.Println()
	}
	// Output:
	// colleague: allowed=false reason=minruntime_protected until=11:00AM
	// prod-job: allowed=true reason=not_protected
}
