package expectedruntime

import (
	"math"
	"time"

	"github.com/tenurepolicy/tenure/queuetree"
)

// Victim is what the requeue engine needs to know about a job it may
// requeue (requeue.Victim is an alias). The nominator fills one per
// nomination; an embedder without a nominator fills its own.
type Victim struct {
	// ID names the job, as in the engine's model.
	ID string
	// Priority orders victims (lowest first).
	Priority int32
	// Queue is the job's leaf queue, for victim filters.
	Queue queuetree.ID
	// Start is the job's last start; zero: unknown.
	Start time.Time
	// Expected is the expected runtime; 0: none.
	Expected time.Duration
	// RequeueDelay is the cooldown after a committed requeue when
	// HasRequeueDelay (zero is valid; negative is bad data, skipped by the
	// engine); otherwise the engine's default applies.
	RequeueDelay time.Duration
	// HasRequeueDelay says that RequeueDelay is set.
	HasRequeueDelay bool
	// NotBefore is the not-before gate; zero: none.
	NotBefore time.Time
	// LastCheckpoint is when the job last saved its work; zero: the work
	// an eviction loses counts from Start.
	LastCheckpoint time.Time
	// Resources weighs the work an eviction loses; 0, negative or NaN
	// count as 1.
	Resources float64
}

// Overrun returns now − Start − Expected (saturating), or 0 when Start is
// unknown.
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
