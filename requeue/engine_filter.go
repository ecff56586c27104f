package requeue

import (
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
)

// VictimFilter decides whether a victim may be evicted at now so that a
// particular contender can run. The engine asks the filters in order about
// each victim a contender's search reaches (cheapest first); the first
// denial wins, and the victim is not in that contender's list. The denial
// becomes the victim's outcome (skipped, with its Reason and Until) only
// where the protection kept a contender waiting: the victim came before
// the last victim of the contender's set, or the contender had no set
// but some of the denied victims would have let it fit.
//
// Contract: FilterVictim is a function of its arguments (asked once per
// pair and pass), modifies and keeps neither pointer, does not call back
// into the engine, and should be cheap and allocation-free. On a denial,
// Reason is a stable label that becomes the skipped outcome's reason, and
// Until the earliest instant the denial may end by time alone. The zero
// Decision denies with no reason ([ReasonFiltered]).
type VictimFilter interface {
	FilterVictim(now time.Time, v *Victim, c *Contender) eligibility.Decision
}
