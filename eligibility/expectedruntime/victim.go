package expectedruntime

import (
	"math"
	"time"

	"github.com/tenurepolicy/tenure/queuetree"
)

// Victim is what the requeue engine needs to know about a job it
// may requeue: the one representation of that data. package requeue names
// it requeue.Victim (an alias), and a [Nomination] embeds it, so the
// nominator's output feeds the engine as is. An embedder without a
// nominator fills one per job it nominates itself.
type Victim struct {
	// ID names the job, as in the nominations and the engine's model.
	ID string
	// Priority orders victims (lowest first) and selects contenders
	// (strictly higher by default).
	Priority int32
	// Queue is the job's leaf queue, for victim filters such as the
	// min-runtime filter; queuetree.None when unknown.
	Queue queuetree.ID
	// Start is the job's last start; zero when unknown.
	Start time.Time
	// Expected is the job's expected runtime (0 when it has none); with Start
	// it gives the overrun now - Start - Expected that orders victims.
	Expected time.Duration
	// RequeueDelay is the cooldown after a committed requeue, used when
	// HasRequeueDelay (a zero delay is valid); otherwise the engine's
	// default delay (requeue.EngineConfig.DefaultDelay) applies. A
	// negative delay is bad data: the engine skips the victim with
	// requeue.ReasonInvalidDelay.
	RequeueDelay time.Duration
	// HasRequeueDelay says that RequeueDelay is set (the nominator sets it
	// when the job carries a requeue-delay annotation that parses).
	HasRequeueDelay bool
	// NotBefore is the parsed not-before gate (zero when absent). The
	// engine skips the victim with [eligibility.ReasonCooldown] while now < NotBefore.
	NotBefore time.Time
	// LastCheckpoint is when the job last saved its work (zero: no
	// checkpoint, the work lost by an eviction counts from Start). It feeds
	// the engine's default cost rule, requeue.DefaultVictimCost.
	LastCheckpoint time.Time
	// Resources is how much the job holds, in the embedder's unit (GPUs,
	// say): the weight of the work an eviction loses. 0 (or a negative or
	// NaN value) means unknown and counts as 1, so that the lost work is
	// then the time alone. The nominator copies [eligibility.Job.Resources].
	Resources float64
}

// Overrun returns now - Start - Expected (saturating), or 0 when Start is
// unknown. No allocation.
func (v *Victim) Overrun(now time.Time) time.Duration {
	if v.Start.IsZero() {
		return 0
	}
	d, e := now.Sub(v.Start), v.Expected
	switch {
	case e > 0 && d < math.MinInt64+e:
		return math.MinInt64
	case e < 0 && d > math.MaxInt64+e:
		return math.MaxInt64
	}
	return d - e
}
