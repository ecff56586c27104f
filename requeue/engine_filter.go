package requeue

import (
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
)

// VictimFilter decides whether a victim may be evicted at now so that a
// particular contender can run. The engine asks the filters in order about
// the victims of the shortest prefix of the contender's eligible list
// (cheapest first) whose eviction lets it fit; the first denial wins, and
// the victim leaves that contender's search. So a victim is skipped for
// protection only when it was among the cheapest victims that let a
// contender fit.
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
