package requeue

import (
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
)

// VictimFilter decides whether a victim may be evicted at now so that a
// particular contender can run (the min-runtime filter depends on both jobs'
// queues). The engine asks the filters, in [EngineConfig.Filters] order,
// about the victims of a set once the contender fits with the whole set
// evicted (and the set is irreducible); the first denial wins, the victim
// leaves that contender's search, and the search goes on without it. So a
// filter is asked only when its answer matters (a victim no set of which
// lets a contender fit is kept for that, protected or not), and a skip for
// protection means the protection is what keeps the victim running.
//
// Contract: FilterVictim must be a function of its arguments (the engine
// does not ask twice about one pair in a pass), must not modify v or c or
// keep the pointers, must not call back into the engine, and should be
// cheap and allocation-free (it runs at most once per victim-contender
// pair). It is called from the goroutine running the pass.
//
// The answer is tenure's common [eligibility.Decision]: Allowed reports that
// the victim may be evicted for this contender; on a denial, Reason is a
// stable label (such as "minruntime_protected") that becomes the skipped
// outcome's Reason, and Until the earliest instant the denial may end by time
// alone (zero when it will not). The zero Decision denies with no reason;
// filters should always set Reason on a denial.
type VictimFilter interface {
	FilterVictim(now time.Time, v *Victim, c *Contender) eligibility.Decision
}
