package policies

import (
	"time"

	"github.com/tenurepolicy/tenure/runtime"
)

// Settings are the policy parameters of a run; the report's header prints
// them.
type Settings struct {
	// MinRuntime: queue -> min-runtime for both preempt and reclaim; the
	// defaults merged with -min-runtime, in queue-tree order.
	MinRuntime []QueueDuration
	// PreemptMinRuntime: queue -> the preempt min-runtime alone (an
	// eviction within one team queue), overriding MinRuntime's for that
	// queue; -preempt-min-runtime merged into its defaults likewise.
	PreemptMinRuntime []QueueDuration
	// Method is how reclaims resolve (runtime.MethodLCA or MethodQueue).
	Method runtime.Method
	// Expected: queue -> expected runtime (requeue opt-in), merged likewise.
	Expected []QueueDuration
	// RequeueDelay is the cooldown after a requeue.
	RequeueDelay time.Duration
	// RequeueEqual lets pending jobs of equal priority contend for an
	// over-running job's resources (requeue.EngineConfig.CanContend).
	RequeueEqual bool
	// MaxLostWork caps the work one committed requeue set may throw away,
	// in GPU-seconds (requeue.EngineConfig.MaxLostWork). 0: no cap.
	MaxLostWork float64
	// NoNewer turns the time-based policy's "newer" rule off by giving the
	// library no preemptor timestamp (timebased.Request: the zero
	// time counts no candidate as newer); only minAdmit expiry remains.
	NoNewer bool
	// MinAdmit is the time-based policy's minAdmitDuration.
	MinAdmit time.Duration
	// ReserveAfter is how long a job must have waited before the reserve
	// and reserve-naive policies hold nodes for it.
	ReserveAfter time.Duration
	// Reservations bounds how many jobs hold reservations at a time.
	Reservations int
	// ReserveMinGPUs limits reservations to jobs asking for at least this
	// many GPUs in all (tasks × GPUs per task; a task sharing a GPU counts
	// one); 0: any job.
	ReserveMinGPUs int
	// PreemptorDelay is the preemptor-side delay (tenure.Config.PreemptorDelay,
	// YuniKorn's preemption.delay): a pending job may cause evictions, by
	// preemption or through the requeue engine, only once it has waited
	// this long in its current stint in the queue. 0: none.
	PreemptorDelay time.Duration
	// BudgetMax evictions per BudgetWindow is the per-job eviction budget
	// (tenure.Config.EvictionBudget) of every eviction the scheduler
	// chooses (preempt, reclaim, time-based, requeue). 0: none.
	BudgetMax    int
	BudgetWindow time.Duration
	// ThrashWindow is the fixed reference of the thrash metric: evictions
	// of runs shorter than this, for every policy.
	ThrashWindow time.Duration
}

// QueueDuration is one queue=duration setting.
type QueueDuration struct {
	Queue string
	D     time.Duration
}
