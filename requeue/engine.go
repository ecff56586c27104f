package requeue

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
)

// EngineConfig configures an [Engine]. The zero value is valid: no default
// delay (a committed victim's not-before is now, rounded up to the second,
// unless it has its own requeue delay), no bounds, no filters, the default
// orders, no observer.
type EngineConfig struct {
	// DefaultDelay is the cooldown written for a committed victim without
	// its own requeue delay (seed 000: "Default: Determined by Requeue
	// action"). Must not be negative.
	DefaultDelay time.Duration
	// MaxVictims bounds the victims a pass evicts (commits); 0 means no
	// bound. When reached, the remaining nominations are deferred with
	// [ReasonMaxVictims].
	MaxVictims int
	// MaxAttempts bounds the [Model.Place] calls of a pass; 0 means no
	// bound. When reached before the current victim found a contender, the
	// victim's eviction is rolled back and it and the remaining nominations
	// are deferred with [ReasonMaxAttempts]; a victim that already
	// placed a contender is committed.
	MaxAttempts int
	// Filters are asked, in order, before each attempt to place a contender
	// in a victim's resources; see [VictimFilter]. No nil entries.
	Filters []VictimFilter
	// VictimOrder orders the victims (a three-way comparison; ties are
	// broken by job ID). Nil means [VictimDefaultOrder].
	VictimOrder func(now time.Time, a, b *Victim) int
	// CanContend says whether a contender may use a victim's resources. Nil
	// means [ContenderDefaultEligible]: strictly higher priority.
	CanContend func(v *Victim, c *Contender) bool
	// Observer, if not nil, receives the pass's events: one
	// [eligibility.Event] per outcome (its Decision is the outcome's) and
	// one per rolled-back placement attempt (Reason [ReasonRolledBack], Job
	// the victim, Other the contender), in the order they happen, from the
	// goroutine running the pass. The events' Source is Name.
	Observer eligibility.Observer
	// Name is the Source of the engine's events; "requeue" when empty.
	Name string
}

// Validate reports every problem of c at once (errors.Join), each message
// starting with "requeue:".
func (c EngineConfig) Validate() error {
	var errs []error
	if c.DefaultDelay < 0 {
		errs = append(errs, fmt.Errorf("requeue: negative DefaultDelay %v", c.DefaultDelay))
	}
	if c.MaxVictims < 0 {
		errs = append(errs, fmt.Errorf("requeue: negative MaxVictims %d (0 means no bound)", c.MaxVictims))
	}
	if c.MaxAttempts < 0 {
		errs = append(errs, fmt.Errorf("requeue: negative MaxAttempts %d (0 means no bound)", c.MaxAttempts))
	}
	for i, f := range c.Filters {
		if f == nil {
			errs = append(errs, fmt.Errorf("requeue: Filters[%d] is nil", i))
		}
	}
	return errors.Join(errs...)
}

// Engine runs requeue passes: given the nominated victims and the pending
// contenders of one scheduling cycle, it finds, by transactional virtual
// eviction on the embedder's [Model], which victims to evict so that
// higher-priority contenders can run (seed 000's Requeue action). See
// [Engine.Run] for the algorithm.
//
// An Engine keeps scratch space (including its [Journal]) between passes, so
// a pass allocates little beyond its result. It is not safe for concurrent
// use: run one pass at a time, from one goroutine. The zero Engine runs with
// the zero [EngineConfig].
type Engine struct {
	cfg EngineConfig
	j   Journal

	// scratch, reused across passes
	noms      []VictimNomination
	entries   []victimEntry
	victimIdx map[string]int
	conts     []Contender
	contIdx   map[string]int
	state     []contenderState
}

type victimEntry struct {
	job        string
	nominators []string
	victim     int // index in EngineInput.Victims, -1 if unknown
}

type contenderState uint8

const (
	contenderAvailable contenderState = iota
	contenderPlaced                   // placed this pass
	contenderFailed                   // Place returned an error
	contenderEvicted                  // a victim evicted this pass
)

// NewEngine returns an engine with the configuration cfg, or cfg's
// validation error.
func NewEngine(cfg EngineConfig) (*Engine, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.Filters = slices.Clone(cfg.Filters)
	return &Engine{cfg: cfg, victimIdx: map[string]int{}, contIdx: map[string]int{}}, nil
}

// Config returns the engine's configuration.
func (e *Engine) Config() EngineConfig {
	c := e.cfg
	c.Filters = slices.Clone(c.Filters)
	return c
}

// Run performs one pass at instant now (DESIGN §4.5):
//
//  1. Nominations are merged by job ID; each job's nominator names are
//     sorted and deduplicated. A job without [Victim] data is skipped with
//     [ReasonUnknownVictim].
//  2. Victims are ordered by [EngineConfig.VictimOrder] (default: lowest
//     priority, largest overrun, ID). Contenders are ordered highest
//     priority first, then oldest Queued, then ID.
//  3. For each victim, until a bound is reached: a victim in cooldown (now <
//     NotBefore) is skipped with Until = NotBefore; a victim placed as a
//     contender earlier in the pass, or with a negative delay, is skipped.
//     Otherwise each eligible contender ([EngineConfig.CanContend], not yet
//     placed this pass) is checked against the filters; a denied pair is
//     not tried. For the first allowed pair the engine takes a checkpoint
//     and evicts the victim ([Model.Evict]); for each allowed contender it
//     takes a nested checkpoint and calls [Model.Place], rolling back that
//     placement if it fails. After the first placement, the remaining
//     contenders are tried in the same freed resources (one eviction can
//     make room for several jobs). If anything was placed the engine commits
//     ([OutcomeCommitted], NotBefore = now + delay rounded up to the second);
//     otherwise it rolls back the eviction and the victim is kept
//     ([ReasonNoFit], or [ReasonNoContender] when no
//     contender qualified). If every qualifying contender was denied by a
//     filter, the victim is skipped with the first denial's reason and the
//     earliest denial Until.
//  4. When a bound stops the pass, the current (uncommitted) victim and all
//     remaining ones are deferred.
//
// Every distinct nominated job gets exactly one [Outcome]; the result does
// not depend on the order of in.Nominations. The model ends the pass with
// the committed evictions and placements applied and nothing else.
//
// Cost: O(n log n) for n nominations plus, per victim, at most one eviction
// and one [Model.Place] per eligible contender, and the filter calls. It
// allocates the result (outcomes, their nominator and contender lists) and
// nothing per attempt beyond what the model does.
//
// Run returns an error only for a nil model or a model that broke the
// [Journal] contract (committed or rolled back the engine's journal itself);
// in the latter case the model's state is unreliable.
func (e *Engine) Run(now time.Time, in EngineInput, m Model) (EngineResult, error) {
	var res EngineResult
	if m == nil {
		return res, errors.New("requeue: nil model")
	}
	e.j.Commit() // start from an empty log (a previous pass may have failed)
	e.merge(in)  // before prepareContenders: it creates the zero Engine's maps
	e.prepareContenders(in.Contenders)

	res.Outcomes = make([]Outcome, 0, len(e.entries))
	known := e.entries[:0]
	for _, ent := range e.entries {
		if ent.victim < 0 {
			e.emit(&res, Outcome{Job: ent.job, Nominators: ent.nominators, Kind: OutcomeSkipped, Decision: eligibility.Decision{Reason: ReasonUnknownVictim}})
			continue
		}
		known = append(known, ent)
	}
	order := e.cfg.VictimOrder
	if order == nil {
		order = VictimDefaultOrder
	}
	slices.SortStableFunc(known, func(a, b victimEntry) int {
		return order(now, &in.Victims[a.victim], &in.Victims[b.victim])
	})

	var placed []string // backing array of every outcome's Contenders
	var runErr error
	for k, ent := range known {
		var stop eligibility.Reason
		switch {
		case e.cfg.MaxVictims > 0 && res.Commits >= e.cfg.MaxVictims:
			stop = ReasonMaxVictims
		case e.cfg.MaxAttempts > 0 && res.Attempts >= e.cfg.MaxAttempts:
			stop = ReasonMaxAttempts
		}
		if stop == "" {
			v := &in.Victims[ent.victim]
			o, deferred, err := e.tryVictim(now, v, m, &res, &placed)
			if err != nil && runErr == nil {
				runErr = err
			}
			if !deferred {
				o.Job, o.Nominators = ent.job, ent.nominators
				e.emit(&res, o)
				continue
			}
			stop = ReasonMaxAttempts
		}
		for _, rest := range known[k:] {
			e.emit(&res, Outcome{Job: rest.job, Nominators: rest.nominators, Kind: OutcomeDeferred, Decision: eligibility.Decision{Reason: stop}})
		}
		break
	}
	clear(e.entries) // drop references to the caller's strings
	clear(e.conts)
	return res, runErr
}

func (e *Engine) emit(res *EngineResult, o Outcome) {
	res.Wake = eligibility.Earliest(res.Wake, o.Until) // only skips have an Until
	res.Outcomes = append(res.Outcomes, o)
	if e.cfg.Observer != nil {
		e.cfg.Observer.Observe(eligibility.Event{Source: e.name(), Job: o.Job, Decision: o.Decision, Err: o.Err})
	}
}

// merge deduplicates the nominations into e.entries, sorted by job ID.
func (e *Engine) merge(in EngineInput) {
	noms := append(e.noms[:0], in.Nominations...)
	slices.SortFunc(noms, func(a, b VictimNomination) int {
		if c := cmp.Compare(a.Job, b.Job); c != 0 {
			return c
		}
		return cmp.Compare(a.Nominator, b.Nominator)
	})
	noms = slices.Compact(noms)
	e.noms = noms

	if e.victimIdx == nil { // the zero Engine
		e.victimIdx, e.contIdx = map[string]int{}, map[string]int{}
	}
	clear(e.victimIdx)
	for i := range in.Victims {
		if _, dup := e.victimIdx[in.Victims[i].ID]; !dup {
			e.victimIdx[in.Victims[i].ID] = i
		}
	}

	names := make([]string, len(noms)) // one backing array for all Nominators
	e.entries = e.entries[:0]
	for i := 0; i < len(noms); {
		k := i
		for k < len(noms) && noms[k].Job == noms[i].Job {
			names[k] = noms[k].Nominator
			k++
		}
		vi, ok := e.victimIdx[noms[i].Job]
		if !ok {
			vi = -1
		}
		e.entries = append(e.entries, victimEntry{job: noms[i].Job, nominators: names[i:k:k], victim: vi})
		i = k
	}
	clear(e.noms)
}

func (e *Engine) prepareContenders(in []Contender) {
	conts := append(e.conts[:0], in...)
	slices.SortFunc(conts, func(a, b Contender) int { return contenderOrder(&a, &b) })
	clear(e.contIdx)
	out := conts[:0]
	for _, c := range conts {
		if _, dup := e.contIdx[c.ID]; dup {
			continue
		}
		e.contIdx[c.ID] = len(out)
		out = append(out, c)
	}
	clear(conts[len(out):])
	e.conts = out
	e.state = slices.Grow(e.state[:0], len(out))[:len(out)]
	clear(e.state)
}

// tryVictim decides one victim. deferred reports that MaxAttempts stopped it
// before anything was placed (its eviction rolled back).
func (e *Engine) tryVictim(now time.Time, v *Victim, m Model, res *EngineResult, placed *[]string) (o Outcome, deferred bool, err error) {
	if ci, ok := e.contIdx[v.ID]; ok && e.state[ci] == contenderPlaced {
		return Outcome{Kind: OutcomeSkipped, Decision: eligibility.Decision{Reason: ReasonPlacedThisPass}}, false, nil
	}
	if !v.NotBefore.IsZero() && now.Before(v.NotBefore) {
		return Outcome{Kind: OutcomeSkipped, Decision: eligibility.Decision{Reason: eligibility.ReasonCooldown, Until: v.NotBefore}}, false, nil
	}
	delay := e.cfg.DefaultDelay
	if v.HasRequeueDelay {
		delay = v.RequeueDelay
	}
	notBefore := NotBeforeCeil(now.Add(delay))
	if y := notBefore.Year(); delay < 0 || y < 0 || y > 9999 {
		return Outcome{Kind: OutcomeSkipped, Decision: eligibility.Decision{Reason: ReasonInvalidDelay}}, false, nil
	}

	var (
		base        Checkpoint
		evicted     bool
		eligible    int
		allowed     int
		denyReason  eligibility.Reason
		denyUntil   time.Time
		first       = len(*placed)
		canContend  = e.cfg.CanContend
		maxAttempts = e.cfg.MaxAttempts
		bounded     bool
	)
	for ci := range e.conts {
		c := &e.conts[ci]
		if e.state[ci] != contenderAvailable || c.ID == v.ID {
			continue
		}
		if canContend == nil {
			if c.Priority <= v.Priority {
				break // sorted by priority, highest first
			}
		} else if !canContend(v, c) {
			continue
		}
		eligible++
		if verdict, ok := e.filter(now, v, c); !ok {
			if denyReason == "" {
				denyReason = cmp.Or(verdict.Reason, ReasonFiltered)
			}
			if !verdict.Until.IsZero() && (denyUntil.IsZero() || verdict.Until.Before(denyUntil)) {
				denyUntil = verdict.Until
			}
			continue
		}
		allowed++
		if maxAttempts > 0 && res.Attempts >= maxAttempts {
			bounded = true
			break
		}
		if !evicted {
			base = e.j.Checkpoint()
			if evErr := m.Evict(&e.j, v.ID); evErr != nil {
				err = e.rollback(base)
				return Outcome{Kind: OutcomeSkipped, Decision: eligibility.Decision{Reason: ReasonEvictError}, Err: evErr}, false, err
			}
			evicted = true
		}
		cp := e.j.Checkpoint()
		res.Attempts++
		ok, placeErr := m.Place(&e.j, c.ID)
		if placeErr != nil || !ok {
			if rbErr := e.rollback(cp); rbErr != nil && err == nil {
				err = rbErr
			}
			if placeErr != nil {
				e.state[ci] = contenderFailed
				res.ContenderErrors = append(res.ContenderErrors, ContenderError{Contender: c.ID, Err: placeErr})
			}
			if e.cfg.Observer != nil {
				e.cfg.Observer.Observe(eligibility.Event{Source: e.name(), Job: v.ID, Other: c.ID, Decision: eligibility.Decision{Reason: ReasonRolledBack}})
			}
			continue
		}
		e.state[ci] = contenderPlaced
		*placed = append(*placed, c.ID)
	}

	if len(*placed) > first {
		e.j.Commit()
		res.Commits++
		if ci, ok := e.contIdx[v.ID]; ok {
			e.state[ci] = contenderEvicted
		}
		return Outcome{
			Kind:       OutcomeCommitted,
			Decision:   eligibility.Decision{Allowed: true, Reason: ReasonCommitted},
			Contenders: (*placed)[first:len(*placed):len(*placed)],
			NotBefore:  notBefore,
			Annotation: notBefore.Format(time.RFC3339),
		}, false, err
	}
	if evicted {
		if rbErr := e.rollback(base); rbErr != nil && err == nil {
			err = rbErr
		}
	}
	switch {
	case bounded:
		return Outcome{}, true, err
	case eligible == 0:
		return Outcome{Kind: OutcomeKept, Decision: eligibility.Decision{Reason: ReasonNoContender}}, false, err
	case allowed == 0:
		return Outcome{Kind: OutcomeSkipped, Decision: eligibility.Decision{Reason: denyReason, Until: denyUntil}}, false, err
	}
	return Outcome{Kind: OutcomeKept, Decision: eligibility.Decision{Reason: ReasonNoFit}}, false, err
}

func (e *Engine) filter(now time.Time, v *Victim, c *Contender) (eligibility.Decision, bool) {
	for _, f := range e.cfg.Filters {
		if verdict := f.FilterVictim(now, v, c); !verdict.Allowed {
			return verdict, false
		}
	}
	return eligibility.Decision{Allowed: true}, true
}

func (e *Engine) rollback(cp Checkpoint) error {
	if err := e.j.Rollback(cp); err != nil {
		return fmt.Errorf("requeue: the model broke the journal contract (committed or rolled back the engine's journal): %w", err)
	}
	return nil
}

// name is the Source of the engine's events.
func (e *Engine) name() string { return cmp.Or(e.cfg.Name, DefaultEngineName) }

// DefaultEngineName is the Source of an [Engine]'s events when
// [EngineConfig.Name] is empty.
const DefaultEngineName = "requeue"
