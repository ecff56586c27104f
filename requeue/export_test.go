package requeue

import (
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
)

// Hooks for the external tests (package requeue_test): they use the
// reference model of requeue/cluster, which imports this package, so they
// cannot be internal tests.

var (
	ErrReentrantRun   = errReentrantRun
	DefaultVictimCost = defaultVictimCost
	MergeVictim       = mergeVictim
	ErrUndoPanicked   = errUndoPanicked

	ErrContenderNominated = errContenderNominated
	ErrEmptyContenderID   = errEmptyContenderID
)

// Labels holds the engine's reasons without a constant, by label.
var Labels = map[string]eligibility.Reason{
	"committed": reasonCommitted, "no_contender": reasonNoContender, "no_fit": reasonNoFit,
	"cheaper_set": reasonCheaperSet, "lost_work": reasonLostWork,
	"set_search_bound": reasonSetSearchBound, "max_victims": reasonMaxVictims,
	"max_attempts": reasonMaxAttempts, "max_checks": reasonMaxChecks, "model_error": reasonModelError,
	"rolled_back": reasonRolledBack, "fit_without_eviction": reasonFitWithoutEviction,
}

// ContenderProblem is an entry of EngineResult.ContenderProblems, for the
// tests' expected results.
type ContenderProblem = contenderProblem

// SearchFloor is the floor of e's last pass: over its committed sets, the
// eligible victims up to each set's last one.
func SearchFloor(e *Engine) int { return e.floor }

// JournalLen is the number of undo steps e's journal holds.
func JournalLen(e *Engine) int { return e.j.len() }

// HoldsModel reports whether e still references a pass's model.
func HoldsModel(e *Engine) bool { return e.model != nil }

// Config is e's configuration, to change between passes.
func Config(e *Engine) *EngineConfig { return &e.cfg }

// Len is the number of undo steps j holds.
func (j *Journal) Len() int { return j.len() }

// Valid reports whether j.Rollback(cp) would accept cp.
func (j *Journal) Valid(cp Checkpoint) bool { return j.check(cp) == nil }

// VictimFilterFunc adapts a function to [VictimFilter].
type VictimFilterFunc func(now time.Time, v *Victim, c *Contender) eligibility.Decision

// FilterVictim calls f.
func (f VictimFilterFunc) FilterVictim(now time.Time, v *Victim, c *Contender) eligibility.Decision {
	return f(now, v, c)
}
