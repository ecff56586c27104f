package requeue

import (
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
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

// Victim is what the engine needs to know about a nominated job: the
// embedder supplies one per job it may nominate (extra ones are ignored).
// It is [expectedruntime.Victim], which an [expectedruntime.Nomination]
// embeds: [EngineInput].Nominated takes a nominator's output as is.
type Victim = expectedruntime.Victim

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
	// OutcomeCommitted: evicting the victim, together with the other
	// victims of its set (Outcome.With), lets a contender run; evict it,
	// write the not-before annotation.
	OutcomeCommitted OutcomeKind = iota + 1
	// OutcomeKept: no set holding the victim served a contender (none
	// qualified, none fitted, a cheaper set was chosen, or a per-victim
	// bound gave up on it); the victim keeps running. Nothing to do.
	OutcomeKept
	// OutcomeSkipped: the victim may not be evicted now (cooldown; a filter
	// denied it for a contender whose set needed it, and no set was
	// committed with it; bad data; Evict failed); Reason says why and
	// Until when that may change.
	OutcomeSkipped
	// OutcomeDeferred: a bound of the pass (MaxVictims, MaxAttempts,
	// MaxChecks), or of a contender's set search, was reached, or the model
	// broke its contract, before this victim was decided; nominate it again
	// next cycle.
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

// The engine's reasons: the labels of its outcomes' Reason (an
// [eligibility.Reason], tenure's one reason type, usable as a metric label).
// A victim in cooldown is skipped with [eligibility.ReasonCooldown]; a skip
// caused by a [VictimFilter] carries the filter's reason (for the min-runtime
// filter, eligibility's "minruntime_protected" or "clock_skew").
const (
	// ReasonCommitted: the victim's set let a contender run (kind
	// committed).
	ReasonCommitted eligibility.Reason = "committed"
	// ReasonNoContender: no contender's set search came to the victim: none
	// may use its resources (none of strictly higher priority by default),
	// or all of them were served or failed elsewhere.
	ReasonNoContender eligibility.Reason = "no_contender"
	// ReasonNoFit: every set search the victim took part in failed: no
	// contender fitted with it and the other eligible victims of its
	// domain evicted (tried, or ruled out by the model's [FitBounder] or
	// [SetFitBounder]), or a filter denied another victim of each set that
	// let one fit.
	ReasonNoFit eligibility.Reason = "no_fit"
	// ReasonCheaperSet: kept, the victim was in a set that would have let a
	// contender run (and that the filters allowed evicting for it), but a
	// cheaper set (see [EngineConfig.VictimCost]) served that contender:
	// another domain's, or the same set without this victim (reprieved:
	// the contender fitted without its eviction); no later search used
	// it.
	ReasonCheaperSet eligibility.Reason = "cheaper_set"
	// ReasonSetSearchBound: deferred, no set search examined the victim
	// because a contender's search stopped at its bound
	// ([EngineConfig.MaxSetGroups], [EngineConfig.MaxSetSize]) before
	// reaching it. Limitation: the reason goes only to victims no search
	// examined at all; a victim a bounded search did not reach but a
	// later contender's search examined ends with that search's reason
	// (no_fit, cheaper_set), so a pass in which a bound stopped a search
	// may show no set_search_bound outcome. The search budget bounds
	// ([ReasonMaxChecks], [ReasonMaxAttempts]) always show.
	ReasonSetSearchBound eligibility.Reason = "set_search_bound"
	// ReasonInvalidID: skipped, the nominated job's ID is empty, which no
	// model can name.
	ReasonInvalidID eligibility.Reason = "invalid_id"
	// ReasonUnknownVictim: nominated, but no [Victim] data was given.
	ReasonUnknownVictim eligibility.Reason = "unknown_victim"
	// ReasonInvalidDelay: a negative requeue delay, or a not-before
	// outside years 0000..9999, which RFC3339 cannot write.
	ReasonInvalidDelay eligibility.Reason = "invalid_delay"
	// ReasonEvictError: [Model.Evict] failed (Err says why).
	ReasonEvictError eligibility.Reason = "evict_error"
	// ReasonFiltered: a [VictimFilter] denied the victim without
	// giving a reason.
	ReasonFiltered eligibility.Reason = "filtered"
	// ReasonMaxVictims: deferred, the pass evicted MaxVictims jobs.
	ReasonMaxVictims eligibility.Reason = "max_victims"
	// ReasonMaxAttempts: deferred, the pass made MaxAttempts
	// placement attempts.
	ReasonMaxAttempts eligibility.Reason = "max_attempts"
	// ReasonMaxVictimAttempts: kept, the engine gave up on the victim: it
	// took part in MaxAttemptsPerVictim failed set searches. Nominate it
	// again next cycle.
	ReasonMaxVictimAttempts eligibility.Reason = "max_victim_attempts"
	// ReasonMaxVictimChecks: kept, the engine gave up on the victim: it was
	// examined MaxChecksPerVictim times without being usable (not eligible
	// for the contenders that looked at it). Nominate it again next cycle.
	ReasonMaxVictimChecks eligibility.Reason = "max_victim_checks"
	// ReasonMaxChecks: deferred, the pass made MaxChecks contender
	// examinations.
	ReasonMaxChecks eligibility.Reason = "max_checks"
	// ReasonModelError: deferred, the model broke the Journal or
	// Transactional contract and the pass stopped (Run returns the error).
	ReasonModelError eligibility.Reason = "model_error"
	// ReasonRolledBack: the reason of the [eligibility.Event] the engine
	// reports for each fit test of a set search in which the contender did
	// not fit (Job is the last victim evicted before it, Other the
	// contender), and for each victim a filter denied in a set that let
	// the contender fit (Job is that victim). It is never an outcome's
	// reason.
	ReasonRolledBack eligibility.Reason = "rolled_back"
	// ReasonFitWithoutEviction: the reason of the [eligibility.Event] the
	// engine reports for each contender it placed without an eviction
	// (Allowed true, Job the contender, Other the victim whose commit made
	// room, or ""). It is never an outcome's reason.
	ReasonFitWithoutEviction eligibility.Reason = "fit_without_eviction"
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
	// Decision: Allowed reports that the job is to be evicted (Kind is
	// OutcomeCommitted); Reason explains the outcome with a stable label;
	// Until (skipped only) is the earliest instant the skip may end by time
	// alone: the not-before for a cooldown, the earliest protection expiry
	// among the filter denials. Zero when only new data can change it;
	// in UTC otherwise.
	eligibility.Decision
	// Contenders (committed only) holds the contender the victim's set was
	// evicted for (one job; a slice for callers that list them).
	Contenders []string
	// With (committed only) holds the other victims of the set, in the
	// order the search accumulated them; empty when the victim alone made
	// room. The whole set is evicted for the contender or none of it.
	With []string
	// NotBefore (committed only) is now + delay rounded up to a whole
	// second, in UTC.
	NotBefore time.Time
	// Annotation (committed only) is NotBefore's [eligibility.FormatNotBefore] text,
	// the value to write under [eligibility.AnnotationRequeueNotBefore].
	Annotation string
	// Err is the error behind ReasonEvictError.
	Err error
}

// ContenderError records a contender the engine could not use: one whose
// ID is also nominated, one with an empty ID, or one that [Model.Place]
// rejected with an error (the engine stopped trying it for the rest of the
// pass).
type ContenderError struct {
	// Contender is the contender's ID.
	Contender string
	// Err says why: "requeue: contender is also nominated as a victim",
	// "requeue: contender with an empty ID", or the error Place
	// returned.
	Err error
}

// EngineInput is one pass's input. The engine does not modify or retain the
// slices.
type EngineInput struct {
	// Nominations from any number of nominators, in any order; duplicates
	// are merged.
	Nominations []VictimNomination
	// Nominated holds the nominations of an [expectedruntime.Nominator] as it
	// returns them (NominatorResult.Nominations, or the Nomination of each
	// allowed Evaluate): each counts as an entry of Nominations (its ID and
	// Nominator) and one of Victims (its Victim) would. A
	// nomination carries the job's Resources when the embedder set
	// [eligibility.Job.Resources]; otherwise another entry for the same
	// job may carry them.
	Nominated []expectedruntime.Nomination
	// Victims holds the data of the nominated jobs (extra entries are
	// ignored; a nomination without data is skipped with
	// ReasonUnknownVictim). Several entries for one ID (several
	// nominators reporting the same job) are merged field by field, each
	// field taking the value that protects the running job the most, so
	// that their order does not matter:
	//   - Priority: the highest;
	//   - Start: the latest (a known start wins over the zero time);
	//   - Expected: the longest;
	//   - RequeueDelay: an explicit delay (HasRequeueDelay) wins over none,
	//     of two explicit delays the longest;
	//   - NotBefore: the latest (a gate wins over the zero time);
	//   - LastCheckpoint: the earliest (a checkpoint wins over the zero
	//     time);
	//   - Resources: the largest;
	//   - Queue: the largest ID, so any queue wins over queuetree.None (two
	//     different queues are inconsistent data; the rule only makes the
	//     result independent of the order).
	// Times are compared as instants and kept in UTC, without a monotonic
	// clock reading, whatever time zone an entry writes them in: the
	// victims the filters see, and the outcomes' Until and Wake, are the
	// same for any order of entries that write one instant differently.
	Victims []Victim
	// Contenders are the pending jobs that may use a victim's resources.
	// Of several entries with one ID, the first in contender order (highest
	// priority, then oldest Queued, then smallest Queue) is kept. A
	// contender that is also nominated is dropped and reported in
	// ContenderErrors, as is one with an empty ID (see [ContenderError]).
	// Queued is compared as
	// an instant and given to the filters in UTC.
	Contenders []Contender
}

// EngineResult is one pass's output.
type EngineResult struct {
	// Outcomes holds exactly one outcome per distinct nominated job: first
	// the jobs without victim data or with an empty ID (by ID), then the
	// victims skipped at the start (cooldown, bad data) in victim order,
	// then the victims decided during the pass (each committed set as it
	// was committed, a victim given up by a per-victim bound or failing
	// Evict when that happened), then the rest in victim order.
	Outcomes []Outcome
	// FitWithoutEviction lists, in the order they were placed, the
	// contenders that fitted without an eviction: at the start of the pass
	// or in the room a commit left. The engine placed them in the model (so
	// that no later eviction counts on their room) and evicted no one for
	// them; the scheduler can start them. Each is the event the Observer
	// receives for it: Job the contender, Other the victim whose commit
	// made room ("" at the start of the pass), Reason
	// [ReasonFitWithoutEviction].
	FitWithoutEviction []eligibility.Event
	// ContenderErrors lists the contenders the engine could not use: first
	// the nominated ones and those with an empty ID, then those
	// [Model.Place] failed on, each group in contender order.
	ContenderErrors []ContenderError
	// Attempts counts [Model.Place] calls (see EngineConfig.MaxAttempts).
	Attempts int
	// Checks counts contender examinations (see EngineConfig.MaxChecks).
	Checks int
	// Commits counts the committed victims.
	Commits int
	// Sets counts the committed sets (one per contender served by
	// eviction).
	Sets int
	// Wake is the earliest non-zero Until among the skipped outcomes (zero
	// if none), in UTC: when a skipped victim may become evictable.
	Wake time.Time
}
