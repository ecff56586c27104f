package policies

import (
	"github.com/tenurepolicy/tenure"
	"github.com/tenurepolicy/tenure/eligibility/evictionbudget"
	"github.com/tenurepolicy/tenure/eligibility/preemptordelay"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/runtime"
)

// TenureConfig is the one tenure.Config every compared policy of a run is
// built from:
//
//   - Queues: one top-level queue per class (ls, burstable, be) and teams
//     team queues under each, with KAI-Scheduler's per-queue min-runtime
//     fields: -min-runtime sets a queue's preempt and reclaim min-runtimes,
//     -preempt-min-runtime its preempt one (a queue named only there
//     inherits its reclaim min-runtime);
//   - MinRuntimeArgs: the reclaim method (defaults stay 0);
//   - Engine: the requeue cooldown, who may contend for an over-running
//     job's resources (ContendFunc) and the cap on a set's lost work;
//   - Backoff: Kueue's defaults (60s base, 1h cap, no limit);
//   - PreemptorDelay and EvictionBudget: -preemptor-delay and
//     -eviction-budget, for every compared policy;
//   - Preemption: set per compared policy by New (the candidate rule).
//
// The Clock is left unset: the simulator owns time and starts every cycle
// with tenure.Policy.BeginAt.
func TenureConfig(teams int, set Settings) tenure.Config {
	return tenure.Config{
		Queues:         queues(teams, set),
		MinRuntimeArgs: map[string]string{"reclaimResolveMethod": set.Method.String()},
		Engine: requeue.EngineConfig{DefaultDelay: set.RequeueDelay, CanContend: ContendFunc(set.RequeueEqual), ContendClass: contendClass,
			MaxLostWork: set.MaxLostWork},
		PreemptorDelay: preemptordelay.Delay{Delay: set.PreemptorDelay},
		EvictionBudget: evictionbudget.Budget{Max: set.BudgetMax, Window: set.BudgetWindow},
	}
}

// queues lists the queue tree with each queue's min-runtime fields, in
// string form as a scheduler's queue objects carry them.
func queues(teams int, set Settings) []tenure.Queue {
	var qs []tenure.Queue
	for c := trace.Class(0); c < trace.NumClasses; c++ {
		qs = append(qs, tenure.Queue{Name: c.QueueName()})
		for t := range teams {
			qs = append(qs, tenure.Queue{Name: trace.TeamName(c, t), Parent: c.QueueName()})
		}
	}
	at := map[string]int{}
	for i, q := range qs {
		at[q.Name] = i
	}
	// A setting for a queue the tree does not have is left out here:
	// NewEnv in package sim reports it (the flags refuse such names first).
	entry := func(name string) *tenure.Queue {
		if i, ok := at[name]; ok {
			return &qs[i]
		}
		return &tenure.Queue{}
	}
	for _, q := range set.MinRuntime {
		e := entry(q.Queue)
		e.PreemptMinRuntime = runtime.FormatDuration(q.D)
		e.ReclaimMinRuntime = e.PreemptMinRuntime
	}
	for _, q := range set.PreemptMinRuntime {
		entry(q.Queue).PreemptMinRuntime = runtime.FormatDuration(q.D)
	}
	return qs
}

// ContendFunc says who may use an over-running job's resources: strictly
// higher priorities (the library's default), or equal ones too; never a
// job ranked apart (a High job of another team queue of the victim's
// class, or the reverse), as in preemption.
func ContendFunc(equal bool) func(v *requeue.Victim, c *requeue.Contender) bool {
	return func(v *requeue.Victim, c *requeue.Contender) bool {
		return !trace.RankedApart(v.Queue == c.Queue, c.Priority, v.Priority) && Contends(c.Priority, v.Priority, equal)
	}
}

// contendClass is ContendFunc's class of contenders: its answer depends on
// the contender's queue and priority alone.
func contendClass(c *requeue.Contender) int64 {
	return int64(uint32(c.Queue))<<32 | int64(uint32(c.Priority))
}

// Contends reports whether a contender of priority cp may use the
// resources of a victim of priority vp: strictly higher, or equal too.
func Contends(cp, vp int32, equal bool) bool { return cp > vp || equal && cp == vp }
