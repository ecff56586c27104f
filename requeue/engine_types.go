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
	// LastEvicted is the job's last eviction (KAI-Scheduler's
	// kai.scheduler/last-eviction-timestamp); zero: never evicted. A
	// preemptor delay counts from the later of Queued and LastEvicted.
	LastEvicted time.Time
	// Annotations are read, never written: a preemptor delay reads the
	// job's own delay there.
	Annotations map[string]string
}

// OutcomeKind says what happened to one nominated job in an [Engine] pass.
type OutcomeKind uint8

// The outcome kinds. Every nominated job gets exactly one.
const (
	// OutcomeCommitted: evict the victim, with its set (Outcome.With), and
	// write the not-before annotation.
	OutcomeCommitted OutcomeKind = iota + 1
	// OutcomeKept: no set holding the victim served a contender; it keeps
	// running.
	OutcomeKept
	// OutcomeSkipped: the victim may not be evicted now (cooldown, a filter's
	// denial, bad data, Evict failed); Reason says why, Until until when.
	OutcomeSkipped
	// OutcomeDeferred: a bound, or a model that broke its contract, stopped
	// the pass before the victim was decided; nominate it again.
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

// The engine's skip reasons: the labels of a skipped outcome's Reason (an
// [eligibility.Reason], tenure's one reason type, usable as a metric label).
// A victim in cooldown is skipped with [eligibility.ReasonCooldown]; a skip
// caused by a [VictimFilter] carries the filter's reason (for the min-runtime
// filter, eligibility's "minruntime_protected" or "clock_skew"). The other
// labels (committed, kept and deferred outcomes, events) are listed in the
// package doc: code branches on [Outcome].Kind, they are labels only.
const (
	// ReasonInvalidID: skipped, the nominated job's ID is empty.
	ReasonInvalidID eligibility.Reason = "invalid_id"
	// ReasonUnknownVictim: skipped, no [Victim] data was given.
	ReasonUnknownVictim eligibility.Reason = "unknown_victim"
	// ReasonInvalidDelay: skipped, a negative requeue delay or a not-before
	// outside years 0000..9999.
	ReasonInvalidDelay eligibility.Reason = "invalid_delay"
	// ReasonEvictError: skipped, [Model.Evict] failed (Err says why).
	ReasonEvictError eligibility.Reason = "evict_error"
	// ReasonFiltered: skipped, a [VictimFilter] denied without a reason.
	ReasonFiltered eligibility.Reason = "filtered"
)

// The engine's other labels: of committed, kept and deferred outcomes, and
// of events that are never an outcome's.
const (
	// reasonCommitted: the victim's set let a contender run.
	reasonCommitted eligibility.Reason = "committed"
	// reasonNoContender: kept, no contender's search came to the victim.
	reasonNoContender eligibility.Reason = "no_contender"
	// reasonNoFit: kept, the victim was in the list of a contender no set
	// of whose victims let fit.
	reasonNoFit eligibility.Reason = "no_fit"
	// reasonCheaperSet: kept, a set search looked at the victim and served
	// its contender with a set that does not hold it (the label predates
	// the search in use: it names every set that did without the victim).
	reasonCheaperSet eligibility.Reason = "cheaper_set"
	// reasonLostWork: kept, the victim was in a set that would have thrown
	// away more than MaxLostWork.
	reasonLostWork eligibility.Reason = "lost_work"
	// reasonSetSearchBound: deferred, a contender's set search reached its
	// share of MaxChecks with the victim in its list, and nothing else
	// decided the victim.
	reasonSetSearchBound eligibility.Reason = "set_search_bound"
	// reasonMaxVictims: deferred, MaxVictims reached.
	reasonMaxVictims eligibility.Reason = "max_victims"
	// reasonMaxAttempts: deferred, MaxAttempts reached.
	reasonMaxAttempts eligibility.Reason = "max_attempts"
	// reasonMaxChecks: deferred, MaxChecks reached.
	reasonMaxChecks eligibility.Reason = "max_checks"
	// reasonModelError: deferred, the model broke the Journal or
	// Transactional contract (Run returns the error).
	reasonModelError eligibility.Reason = "model_error"
	// reasonRolledBack: the reason of the events of failed fit tests and
	// filter denials in a fitting set; never an outcome's.
	reasonRolledBack eligibility.Reason = "rolled_back"
	// reasonFitWithoutEviction: the reason of the event of a placement
	// without eviction; never an outcome's.
	reasonFitWithoutEviction eligibility.Reason = "fit_without_eviction"
)

// Outcome is the engine's decision about one nominated job.
type Outcome struct {
	// Job is the nominated job's ID.
	Job string
	// Nominators is the sorted union of the names that nominated the job.
	Nominators []string
	// Kind is what happened to the job.
	Kind OutcomeKind
	// Decision: Allowed when the job is to be evicted (committed); Reason
	// the stable label; Until (skipped only) the earliest instant the skip may
	// end by time alone, in UTC, zero when only new data can end it.
	eligibility.Decision
	// Contenders (committed only) holds the contender the set was evicted for.
	Contenders []string
	// With (committed only) holds the other victims of the set, evicted with
	// it or not at all.
	With []string
	// NotBefore (committed only) is now + delay rounded up to the second, UTC.
	NotBefore time.Time
	// Annotation (committed only) is NotBefore's [eligibility.FormatNotBefore]
	// text, to write under [eligibility.AnnotationRequeueNotBefore].
	Annotation string
	// Err is the error behind ReasonEvictError.
	Err error
}

// contenderProblem records a contender the engine could not use (see
// [EngineResult].ContenderProblems).
type contenderProblem struct {
	// Contender is the contender's ID.
	Contender string
	// Err says why: "requeue: contender is also nominated as a victim",
	// "requeue: contender with an empty ID", or the error Place
	// returned.
	Err error
}

// EngineInput is one pass's input. The engine neither modifies nor
// retains its slices.
type EngineInput struct {
	// Nominations from any number of nominators, in any order; duplicates
	// merge.
	Nominations []VictimNomination
	// Nominated holds an [expectedruntime.Nominator]'s nominations as it
	// returns them: each counts as an entry of Nominations and of Victims.
	Nominated []expectedruntime.Nomination
	// Victims holds the nominated jobs' data (extra entries are ignored).
	// Entries for one ID merge field by field, each taking the value that
	// protects the job most (highest Priority, latest Start and NotBefore,
	// longest Expected and RequeueDelay, earliest LastCheckpoint, largest
	// Resources and Queue ID), so their order does not matter. Times are kept
	// in UTC without a monotonic reading.
	Victims []Victim
	// Contenders are the pending jobs that may use a victim's resources. Of
	// entries with one ID the first in contender order is kept; one also
	// nominated or with an empty ID goes to ContenderProblems.
	Contenders []Contender
}

// EngineResult is one pass's output.
type EngineResult struct {
	// Outcomes holds exactly one outcome per distinct nominated job: the jobs
	// without data or ID first, then those skipped at the start, those
	// decided during the pass as decided, and the rest in victim order.
	Outcomes []Outcome
	// FitWithoutEviction lists, in placement order, the contenders placed
	// without an eviction (the scheduler can start them), each as the event
	// the Observer receives: Job the contender, Other the first victim of
	// the last set committed before the placement ("" when none). A
	// contender is placed so in the first round, at its turn, or in the
	// last round, after every turn; it may have fitted before that commit.
	FitWithoutEviction []eligibility.Event
	// ContenderProblems lists the contenders the engine could not use: one
	// also nominated, one with an empty ID, or one [Model.Place] failed on
	// (not tried again in the pass). Each entry's Contender is the
	// contender's ID and its Err says why: "requeue: contender is also
	// nominated as a victim", "requeue: contender with an empty ID", or the
	// error Place returned.
	ContenderProblems []contenderProblem
	// Attempts counts fit tests, whether [Model.Place] answered them or a
	// hint did (bounded by MaxAttempts).
	Attempts int
	// Places counts [Model.Place] calls: Attempts less what the hints
	// answered. The only count the hints change.
	Places int
	// Checks counts examinations (bounded by MaxChecks).
	Checks int
	// Commits counts the committed victims.
	Commits int
	// Sets counts the committed sets.
	Sets int
	// NoSet counts the contenders whose search found that no set of the
	// victims they may use lets them fit.
	NoSet int
	// OverShare counts the contenders whose search reached its share of
	// MaxChecks (their victims are deferred with "set_search_bound"
	// unless something else decides them).
	OverShare int
	// OverCap counts the contenders whose set would have thrown away more
	// than MaxLostWork.
	OverCap int
	// Untried counts the contenders a bound (Stop) left undecided: those
	// whose turn never came, and the one whose turn it cut short.
	Untried int
	// Stop is the reason that ended the pass early ("max_victims",
	// "max_attempts", "max_checks", "model_error"); empty
	// when the pass ran to its end.
	Stop eligibility.Reason
	// Wake is the earliest non-zero Until of the skipped outcomes (zero if
	// none), in UTC: when a skipped victim may become evictable.
	Wake time.Time
}
