package requeue

import (
	"math"
	"time"

	"github.com/tenurepolicy/tenure/queuetree"
)

// VictimNomination says that nominator (a plugin name such as
// "expectedruntime" or "proportion") nominated the running job Job for
// requeue. Several nominators may nominate the same job; the engine merges
// them (see [Engine.Run]).
type VictimNomination struct {
	// Job is the nominated running job's ID.
	Job string
	// Nominator names who nominated it; it ends up in Outcome.Nominators.
	Nominator string
}

// Victim is what the engine needs to know about a nominated job. The
// embedder supplies one per job it may nominate (extra ones are ignored);
// [VictimFromNomination] builds one from an expected-runtime nomination.
type Victim struct {
	// ID names the job, as in the nominations and the [Model].
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
	// HasRequeueDelay (a zero delay is valid); otherwise
	// [EngineConfig.DefaultDelay] applies. A negative delay is bad data: the
	// victim is skipped with [OutcomeReasonInvalidDelay].
	RequeueDelay time.Duration
	// HasRequeueDelay says that RequeueDelay is set (the job carries a
	// requeue-delay annotation).
	HasRequeueDelay bool
	// NotBefore is the parsed not-before gate (zero when absent). The victim
	// is skipped with [OutcomeReasonCooldown] while now < NotBefore.
	NotBefore time.Time
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

// Contender is a pending job that may run if a victim gives its resources
// back. The [Model] knows its shape (tasks and requests); the engine needs
// only its order and identity.
type Contender struct {
	// ID names the job, as in the [Model].
	ID string
	// Priority: contenders are tried highest first, and by default only
	// those strictly above the victim's priority.
	Priority int32
	// Queue is the job's leaf queue, for victim filters; queuetree.None when
	// unknown.
	Queue queuetree.ID
	// Queued is when the job started waiting (its creation or queue-order
	// timestamp): among equal priorities the oldest goes first.
	Queued time.Time
}

// OutcomeKind says what happened to one nominated job in an [Engine] pass.
type OutcomeKind uint8

// The outcome kinds. Every nominated job gets exactly one.
const (
	// OutcomeCommitted: evicting the victim lets contenders run; evict it,
	// write the not-before annotation.
	OutcomeCommitted OutcomeKind = iota + 1
	// OutcomeKept: no contender could use the victim's resources (or none
	// qualified); the victim keeps running. Nothing to do.
	OutcomeKept
	// OutcomeSkipped: the victim was not tried (cooldown, filter denial, bad
	// data); Reason says why and Until when that may change.
	OutcomeSkipped
	// OutcomeDeferred: a bound of the pass (MaxVictims, MaxAttempts) was
	// reached before this victim was decided; nominate it again next cycle.
	OutcomeDeferred
)

var outcomeKindNames = [...]string{"none", "committed", "kept", "skipped", "deferred"}

// String returns "committed", "kept", "skipped" or "deferred" ("none" for
// the zero value, "invalid" out of range).
func (k OutcomeKind) String() string {
	if int(k) < len(outcomeKindNames) {
		return outcomeKindNames[k]
	}
	return "invalid"
}

// OutcomeReason explains an [Outcome] with a stable label value, usable as a
// metric label. The engine's own reasons are the OutcomeReason constants; a
// skip caused by a [VictimFilter] carries the filter's reason (for the
// min-runtime filter, eligibility's "minruntime_protected" or
// "clock_skew").
type OutcomeReason string

// The engine's reasons.
const (
	// OutcomeReasonCommitted: a contender was placed (kind committed).
	OutcomeReasonCommitted OutcomeReason = "committed"
	// OutcomeReasonNoContender: no pending job qualified as a contender
	// (none strictly higher priority, or all already placed this pass).
	OutcomeReasonNoContender OutcomeReason = "no_contender"
	// OutcomeReasonNoFit: contenders were tried; none fits even with the
	// victim evicted.
	OutcomeReasonNoFit OutcomeReason = "no_fit"
	// OutcomeReasonCooldown: now < the victim's not-before (Until).
	OutcomeReasonCooldown OutcomeReason = "cooldown"
	// OutcomeReasonUnknownVictim: nominated, but no [Victim] data was given.
	OutcomeReasonUnknownVictim OutcomeReason = "unknown_victim"
	// OutcomeReasonInvalidDelay: a negative requeue delay, or a not-before
	// outside years 0000..9999, which RFC3339 cannot write.
	OutcomeReasonInvalidDelay OutcomeReason = "invalid_delay"
	// OutcomeReasonEvictError: [Model.Evict] failed (Err says why).
	OutcomeReasonEvictError OutcomeReason = "evict_error"
	// OutcomeReasonFiltered: a [VictimFilter] denied the victim without
	// giving a reason.
	OutcomeReasonFiltered OutcomeReason = "filtered"
	// OutcomeReasonMaxVictims: deferred, the pass evicted MaxVictims jobs.
	OutcomeReasonMaxVictims OutcomeReason = "max_victims"
	// OutcomeReasonMaxAttempts: deferred, the pass made MaxAttempts
	// placement attempts.
	OutcomeReasonMaxAttempts OutcomeReason = "max_attempts"
	// OutcomeReasonMaxChecks: deferred, the pass made MaxChecks contender
	// examinations.
	OutcomeReasonMaxChecks OutcomeReason = "max_checks"
	// OutcomeReasonModelError: deferred, the model broke the Journal or
	// Transactional contract and the pass stopped (Run returns the error).
	OutcomeReasonModelError OutcomeReason = "model_error"
)

// Outcome is the engine's decision about one nominated job.
type Outcome struct {
	// Job is the nominated job's ID.
	Job string
	// Nominators is the union of the names that nominated it, sorted and
	// without duplicates (for example ["expectedruntime", "proportion"]).
	Nominators []string
	// Kind is what happened to the job.
	Kind OutcomeKind
	// Reason explains it with a stable label.
	Reason OutcomeReason
	// Until (skipped only) is the earliest instant the skip may end by time
	// alone: the not-before for a cooldown, the earliest protection expiry
	// among the filter denials. Zero when only new data can change it.
	Until time.Time
	// Contenders (committed only) are the jobs placed in the victim's
	// resources, in the order they were placed.
	Contenders []string
	// NotBefore (committed only) is now + delay rounded up to a whole
	// second, in UTC.
	NotBefore time.Time
	// Annotation (committed only) is NotBefore's [FormatNotBefore] text,
	// the value to write under [NotBeforeAnnotation].
	Annotation string
	// Err is the error behind OutcomeReasonEvictError.
	Err error
}

// ContenderError records a contender the engine could not use: one whose
// ID is also nominated ([ErrContenderNominated]), or one that [Model.Place]
// rejected with an error (the engine stopped trying it for the rest of the
// pass).
type ContenderError struct {
	// Contender is the contender's ID.
	Contender string
	// Err says why: ErrContenderNominated (wrapped), or the error Place
	// returned.
	Err error
}

// FreeFit records a contender the engine placed without evicting anyone
// for it (see [EngineResult.FitWithoutEviction]).
type FreeFit struct {
	// Contender is the contender's ID.
	Contender string
	// After is the victim whose commit came just before the placement: the
	// contender did not fit before that victim's eviction, and fits in the
	// room the commit left. "" when it fitted at the start of the pass.
	After string
}

// EngineInput is one pass's input. The engine does not modify or retain the
// slices.
type EngineInput struct {
	// Nominations from any number of nominators, in any order; duplicates
	// are merged.
	Nominations []VictimNomination
	// Victims holds the data of the nominated jobs (extra entries are
	// ignored; a nomination without data is skipped with
	// OutcomeReasonUnknownVictim). Several entries for one ID (several
	// nominators reporting the same job) are merged field by field, each
	// field taking the value that protects the running job the most, so
	// that their order does not matter:
	//   - Priority: the highest;
	//   - Start: the latest (a known start wins over the zero time);
	//   - Expected: the longest;
	//   - RequeueDelay: an explicit delay (HasRequeueDelay) wins over none,
	//     of two explicit delays the longest;
	//   - NotBefore: the latest (a gate wins over the zero time);
	//   - Queue: the largest ID, so any queue wins over queuetree.None (two
	//     different queues are inconsistent data; the rule only makes the
	//     result independent of the order).
	Victims []Victim
	// Contenders are the pending jobs that may use a victim's resources.
	// Of several entries with one ID, the first in contender order (highest
	// priority, then oldest Queued, then smallest Queue) is kept. A
	// contender that is also nominated is dropped and reported in
	// ContenderErrors with [ErrContenderNominated].
	Contenders []Contender
}

// EngineResult is one pass's output.
type EngineResult struct {
	// Outcomes holds exactly one outcome per distinct nominated job: first
	// the jobs without victim data (by ID), then the victims in the order
	// they were considered, the deferred ones last.
	Outcomes []Outcome
	// FitWithoutEviction lists, in the order they were placed, the
	// contenders that fitted without an eviction: at the start of the pass
	// or in the room a commit left. The engine placed them in the model (so
	// that no later eviction counts on their room) and evicted no one for
	// them; the scheduler can start them.
	FitWithoutEviction []FreeFit
	// ContenderErrors lists the contenders the engine could not use: first
	// the nominated ones, then those [Model.Place] failed on, each group in
	// contender order.
	ContenderErrors []ContenderError
	// Attempts counts [Model.Place] calls.
	Attempts int
	// Checks counts contender examinations (see EngineConfig.MaxChecks).
	Checks int
	// Commits counts the committed victims.
	Commits int
	// Wake is the earliest non-zero Until among the skipped outcomes (zero
	// if none): when a skipped victim may become evictable.
	Wake time.Time
}
