package requeue

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/internal/notbefore"
	"github.com/tenurepolicy/tenure/queuetree"
)

// The default bounds of a pass, used where [EngineConfig] leaves a bound 0
// (each field's documentation gives its default, and [Engine.Config] shows
// the bounds in effect). They keep the cost of a pass predictable whatever
// the [Model]: at most 250,000 calls of [Model.Place] and 10,000,000
// examinations (a victim looked at or evicted for a contender, a fit
// test); one victim takes part in at most 500 failed set evaluations and
// is examined at most 1,000 times without being eligible, so that victims
// no contender can use do not eat the pass's budget; a contender's set
// search examines at most 8 groups (domains) with eligible victims, builds
// sets of at most 32 victims, and compares at most 3 sets. A Model whose
// Place costs more than the reference model's should set a lower
// MaxAttempts.
const (
	defaultMaxAttempts          = 250_000
	defaultMaxChecks            = 10_000_000
	defaultMaxAttemptsPerVictim = 500
	defaultMaxChecksPerVictim   = 1_000
	defaultMaxSetGroups         = 8
	defaultMaxSetSize           = 32
	defaultSetCandidates        = 3
)

// ErrReentrantRun is the error of [Engine.Run] called while a pass of the
// same Engine runs, that is, from one of that pass's callbacks (a model
// method, a filter, the observer, ...). The call changes nothing and the
// running pass goes on.
var ErrReentrantRun = errors.New("requeue: Run called from a callback of a pass of the same Engine")

// EngineConfig configures an [Engine]. The zero value is valid: no default
// delay (a committed victim's not-before is now, rounded up to the second,
// unless it has its own requeue delay), the default bounds, no filters, the
// default cost rule, order and contender rule, no observer. A field left
// zero takes the default its documentation names; [Engine.Config] returns
// the configuration with the default bounds and Name filled in.
type EngineConfig struct {
	// DefaultDelay is the cooldown written for a committed victim without
	// its own requeue delay ("determined by the Requeue action" in
	// KAI-Scheduler's expected-runtime proposal). Must not be negative.
	DefaultDelay time.Duration
	// MaxVictims bounds the victims a pass evicts (commits); 0 means no
	// bound. When reached, or when the next set would pass it, the pass
	// stops and the undecided nominations are deferred with
	// [ReasonMaxVictims].
	MaxVictims int
	// MaxAttempts bounds the [Model.Place] calls of a pass; 0 means the
	// default, 250,000. When reached, the set search under way is
	// rolled back and the undecided nominations are deferred with
	// [ReasonMaxAttempts].
	MaxAttempts int
	// MaxAttemptsPerVictim bounds the failed set evaluations one victim
	// takes part in (its group was evicted for a contender that still did
	// not fit). A hopeless contender's search does not count: one that no
	// set let fit though it tried every eligible victim (each group whole,
	// and all together), or one a [CapacityBounder] ruled out. Past it the
	// victim is kept with [ReasonMaxVictimAttempts] and the pass goes on. It also bounds the failed attempts of each
	// round of placements without eviction (a contender left untried there
	// is tried alone before any set search for it). 0 means the default,
	// 500.
	MaxAttemptsPerVictim int
	// MaxChecks bounds the examinations of a pass; 0 means the default,
	// 10,000,000. An examination looks at one victim for one
	// contender (CanContend and the filters), asks the set fit bound
	// ([SetFitBounder]) about one accumulation or the capacity bound
	// ([CapacityBounder]) about one contender, evicts one victim in a set
	// evaluation, tests one contender's fit ([FitBounder.MayFit], then
	// [Model.Place]), or looks at one group of interchangeable contenders
	// (see [Shaper]) for a placement without eviction. When reached, the
	// pass stops as for MaxAttempts, with [ReasonMaxChecks].
	MaxChecks int
	// MaxChecksPerVictim bounds the examinations of one victim that found
	// it not eligible (CanContend false or a filter's denial): past it the
	// victim is given up, kept with [ReasonMaxVictimChecks] (skipped with
	// the filters' reason if one denied it), so that victims no contender
	// may use cannot hold the search at the same place. 0 means the
	// default, 1,000.
	MaxChecksPerVictim int
	// MaxSetGroups bounds the groups (the [Localizer]'s domains; one
	// group without it) with eligible victims that one contender's set
	// search examines, and MaxSetGroups·MaxSetSize the victims it looks
	// at; victims a filter denied for the contender count against neither
	// (a group cut short is looked at again without them, and a group all
	// of whose victims were denied is not counted). A search stopped by it
	// without finding a set leaves the victims
	// no search examined deferred with [ReasonSetSearchBound]. 0 means the
	// default, 8.
	MaxSetGroups int
	// MaxSetSize bounds the victims of one set: a group's first
	// MaxSetSize eligible victims, cheapest first, are tried. 0 means the
	// default, 32.
	MaxSetSize int
	// SetCandidates is how many sets (from as many groups) a search
	// compares before committing the cheapest. 0 means the default, 3; 1
	// commits the first set found.
	SetCandidates int
	// VictimCost is the cost rule: the work evicting v at now throws away.
	// A set costs the sum of its victims' costs; of two sets the cheaper
	// wins, then the one whose most important victim has the lower
	// priority, then the larger total overrun (with a custom VictimOrder:
	// then the one whose last victim in that order comes first). Nil
	// means [DefaultVictimCost]; a NaN cost counts as +Inf.
	VictimCost func(now time.Time, v *Victim) float64
	// Filters are asked, in order, whether a victim may be evicted for a
	// contender that fits in its resources; see [VictimFilter]. No nil
	// entries.
	Filters []VictimFilter
	// VictimOrder orders the victims (a three-way comparison; ties are
	// broken by job ID): the order in which a set search accumulates a
	// group's victims, the order of groups of equal cost, the tie-breaker
	// of sets of equal cost (see VictimCost), and the order of the
	// outcomes decided at the end. Nil means the default order: cheapest
	// first by VictimCost, then lowest priority first, then the largest
	// overrun (now - Start - Expected) first; ties by job ID.
	VictimOrder func(now time.Time, a, b *Victim) int
	// CanContend says whether a contender may evict a victim (it is asked
	// before the filters, for every victim a search looks at). Nil means
	// the default rule: a contender may evict only victims of strictly
	// lower priority (c.Priority > v.Priority).
	CanContend func(v *Victim, c *Contender) bool
	// Observer, if not nil, receives the pass's events, in the order they
	// happen, from the goroutine running the pass, each with Source Name:
	// one [eligibility.Event] per outcome (its Decision is the outcome's,
	// Job the nominated job, Err the outcome's Err), one per fit test of a
	// set search in which the contender did not fit (a group a
	// [SetFitBounder] ruled out gives one, Job its last victim, for the
	// fit tests it spared), and one per victim a
	// filter denied in a set that let the contender fit (Reason
	// [ReasonRolledBack], Job the last victim evicted before the test or
	// the denied victim, Other the contender), and one per placement
	// without eviction (Allowed, Reason
	// [ReasonFitWithoutEviction], Job the contender, Other FreeFit.After).
	Observer eligibility.Observer
	// Name is the Source of the engine's events; "requeue" when empty.
	Name string
}

// defaultEngineName is the Source of an [Engine]'s events when
// [EngineConfig.Name] is empty.
const defaultEngineName = "requeue"

// Validate reports every problem of c at once (errors.Join), each message
// starting with "requeue:" and naming the field.
func (c EngineConfig) Validate() error {
	var errs []error
	if c.DefaultDelay < 0 {
		errs = append(errs, keyErrorf("defaultDelay", "requeue: negative DefaultDelay %v", c.DefaultDelay))
	}
	if c.MaxVictims < 0 {
		errs = append(errs, keyErrorf("maxVictims", "requeue: negative MaxVictims %d (0 means no bound)", c.MaxVictims))
	}
	for _, b := range [...]struct {
		key, name string
		v, deflt  int
	}{
		{"maxAttempts", "MaxAttempts", c.MaxAttempts, defaultMaxAttempts},
		{"maxAttemptsPerVictim", "MaxAttemptsPerVictim", c.MaxAttemptsPerVictim, defaultMaxAttemptsPerVictim},
		{"maxChecks", "MaxChecks", c.MaxChecks, defaultMaxChecks},
		{"maxChecksPerVictim", "MaxChecksPerVictim", c.MaxChecksPerVictim, defaultMaxChecksPerVictim},
		{"maxSetGroups", "MaxSetGroups", c.MaxSetGroups, defaultMaxSetGroups},
		{"maxSetSize", "MaxSetSize", c.MaxSetSize, defaultMaxSetSize},
		{"setCandidates", "SetCandidates", c.SetCandidates, defaultSetCandidates},
	} {
		if b.v < 0 {
			errs = append(errs, keyErrorf(b.key, "requeue: negative %s %d (0 means the default, %d)", b.name, b.v, b.deflt))
		}
	}
	for i, f := range c.Filters {
		if f == nil {
			errs = append(errs, keyErrorf(fmt.Sprintf("filters[%d]", i), "requeue: Filters[%d] is nil", i))
		}
	}
	return errors.Join(errs...)
}

// Engine runs requeue passes: given the nominated victims and the pending
// contenders of one scheduling cycle, it finds, by transactional virtual
// eviction on the embedder's [Model], which sets of victims to evict so
// that higher-priority contenders can run (the Requeue action of
// KAI-Scheduler's expected-runtime proposal). See [Engine.Run] and the
// package documentation for the algorithm.
//
// An Engine keeps scratch space (including its [Journal]) between passes, so
// a pass allocates little beyond its result. It is not safe for concurrent
// use: run one pass at a time, from one goroutine. The zero Engine runs with
// the zero [EngineConfig]. A pass that panics (in a callback) leaves the
// Engine ready for the next one.
type Engine struct {
	cfg EngineConfig
	j   *Journal
	// running is set while a pass runs: Run refuses to start another one
	// from its callbacks.
	running bool

	// The pass being run; nil model between passes.
	now         time.Time
	model       Model
	tx          Transactional
	shaper      Shaper
	bound       FitBounder
	setBound    SetFitBounder
	capBound    CapacityBounder
	res         *EngineResult
	loc         Localizer
	maxAttempts int
	maxChecks   int
	perVictim   int // MaxAttemptsPerVictim or its default
	// The other bounds, defaults applied.
	perVictimChecks, maxSetGroups, maxSetSize, setCandidates int
	budget                                                   int                // failed attempts left to the current victim (or fill)
	stop                                                     eligibility.Reason // the bound (or model failure) that stopped the pass
	err                                                      error              // the first broken model contract
	txErr                                                    error              // the first Rollback error of the current undo
	undoing                                                  bool               // an undo runs (left set when a step panics)
	base                                                     mark               // the state of the last commit
	// state names the model's current state: a fresh number for every state
	// the pass reaches by keeping a change, restored by undo. A shape that
	// did not fit in state s (shapeState.failedAt == s) is not tried again
	// until the state changes.
	state, states uint64
	after         string // the first victim of the last committed set
	setBounded    bool   // a set search stopped at its bound without a set
	stamp         uint64 // marks victims in one search
	closed        int    // victims closed so far
	truncated     bool   // eligibleIn stopped before the group's end
	cut           bool   // the last search did not look at every group
	reordered     int    // groups moved to the end so far
	// scratch, reused across passes
	nomsIn       []VictimNomination // the nominations of EngineInput, Nominated's included
	victimsIn    []Victim           // the victims of EngineInput, Nominated's included
	noms         []VictimNomination
	idKeys       []idKey
	vkeys        []victimKey
	knownTmp     []victimEntry
	entries      []victimEntry
	victims      []Victim    // merged, one per ID
	conts        []contender // sorted, deduplicated
	contIdx      map[string]int32
	shapes       []shapeState
	shapeIdx     map[string]int32
	live         []int32 // shapes that may still have contenders
	heap         []int32 // shapes to examine, by their cursor's contender order
	parked       []int32 // shapes that did not fit in the current state
	hintJobs     []string
	hintFits     []bool
	boundIDs     []string // the victims of a set asked about (SetFitBounder)
	cerrs        []rankedError
	known        []victimEntry // the victims with data, in victim order (their rank)
	vs           []vstate      // by rank
	groups       []group
	gflat        []int32 // the groups' members
	vgflat       []int32 // the victims' groups
	vgcount      []int32
	gorder       []groupKey
	ghead        int32            // the first group with open victims, -1 if none
	gtail        int32            // the last
	vgpairs      []vgPair         // victim-group pairs, in victim order
	groupIdx     map[string]int32 // a domain's group while groups are built
	lastKey      string           // the domain groupsOf met last
	lastGroup    int32            // its group
	byID         []int32          // the victims' ranks in the order of their IDs
	vgsorted     []vgPair
	domBuf       []string
	cand         []int32 // a group's victims eligible for the contender
	cross        []int32 // the eligible victims of the groups a search examined
	set          []int32 // the set an evaluation found
	best         []int32 // the cheapest set a search found
	losers       []int32 // the victims of the other sets it found
	failedGroups []int32 // the groups a search found no set in
	evalKs       []int32 // the victims an evaluation may still use
	pendFails    []int32 // the victims of a search's failed accumulations, one per failure
	setFit       bool    // some accumulation of the search let the contender fit
	hopeless     bool    // the contender was ruled out, or the search tried every eligible victim and no set let it fit
	never        bool    // the CapacityBounder ruled the contender searched for out: no eviction lets it fit
}

// rankedError is a contender's Place error, with the contender's index.
type rankedError struct {
	ci  int32
	err error
}

type victimEntry struct {
	job        string
	nominators []string
	victim     int32 // index in Engine.victims, -1 if unknown
	// The victim order's keys: the default order's cost, priority and
	// overrun, and the entry's rank by job ID (the last tie-breaker).
	cost     float64
	priority int32
	overrun  time.Duration
	rank     int32
}

// orderVictims sorts the known victims by the configured order, ties by job
// ID. The default order's keys are computed once per victim.
func (e *Engine) orderVictims(known []victimEntry) {
	for i := range known {
		v := &e.victims[known[i].victim]
		known[i].priority, known[i].overrun, known[i].rank = v.Priority, v.Overrun(e.now), int32(i)
		known[i].cost = e.victimCost(v)
	}
	if order := e.cfg.VictimOrder; order != nil {
		slices.SortFunc(known, func(a, b victimEntry) int {
			return cmp.Or(order(e.now, &e.victims[a.victim], &e.victims[b.victim]), cmp.Compare(a.rank, b.rank))
		})
		return
	}
	// The default order sorts its keys (a small struct, cheap to move),
	// then places the entries.
	keys := e.vkeys[:0]
	for i := range known {
		ent := &known[i]
		keys = append(keys, victimKey{ent.cost, ent.overrun, ent.priority, ent.rank})
	}
	slices.SortFunc(keys, compareVictimKeys)
	tmp := append(e.knownTmp[:0], known...)
	for i, k := range keys {
		known[i] = tmp[k.rank]
	}
	clear(tmp)
	e.vkeys, e.knownTmp = keys[:0], tmp[:0]
}

// contender is a contender of the pass, in the list of its shape's
// contenders still available (neither placed nor failed), in contender
// order.
// A contender's capacity: what the model's CapacityBounder said of it.
const (
	capUnasked int8 = iota // not asked yet in this pass (or no bound)
	capMay                 // it may fit once some jobs are evicted
	capNever               // no eviction lets it fit
)

type contender struct {
	c          Contender
	shape      int32
	next, prev int32
	gone       bool // placed or failed
	// capacity is the CapacityBounder's answer: capUnasked until the
	// contender's first search of the pass.
	capacity int8
}

// shapeState is one group of interchangeable contenders.
type shapeState struct {
	head, tail int32  // available contenders, in contender order
	cursor     int32  // the contender a sweep examines next
	failedAt   uint64 // a state in which the shape does not fit
	hintAt     uint64 // a state in which MayFit answered true
	// A set search for a contender of this shape, queue and priority
	// failed in state setFailedAt.
	setFailedAt uint64
	setClosed   int // Engine.closed then
	setOrder    int // Engine.reordered then
	setQueue    queuetree.ID
	setPrio     int32
	setNoFit    bool // no set let that contender fit (no filter was asked)
}

// NewEngine returns an engine with the configuration cfg, or cfg's
// validation error.
func NewEngine(cfg EngineConfig) (*Engine, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.Filters = slices.Clone(cfg.Filters)
	return &Engine{cfg: cfg}, nil
}

// Config returns the engine's configuration as it runs: each bound and
// Name left zero holds its default (MaxVictims 0 stays 0: no bound); the
// functions left nil stay nil, meaning their defaults. An Engine built
// from it behaves as e does.
func (e *Engine) Config() EngineConfig {
	c := e.cfg
	c.Filters = slices.Clone(c.Filters)
	c.MaxAttempts = cmp.Or(c.MaxAttempts, defaultMaxAttempts)
	c.MaxChecks = cmp.Or(c.MaxChecks, defaultMaxChecks)
	c.MaxAttemptsPerVictim = cmp.Or(c.MaxAttemptsPerVictim, defaultMaxAttemptsPerVictim)
	c.MaxChecksPerVictim = cmp.Or(c.MaxChecksPerVictim, defaultMaxChecksPerVictim)
	c.MaxSetGroups = cmp.Or(c.MaxSetGroups, defaultMaxSetGroups)
	c.MaxSetSize = cmp.Or(c.MaxSetSize, defaultMaxSetSize)
	c.SetCandidates = cmp.Or(c.SetCandidates, defaultSetCandidates)
	c.Name = e.name()
	return c
}

// Run performs one pass at instant now.
//
//  1. Input: nominations merged by job ID, victim data merged field by
//     field ([EngineInput.Victims]); contenders ordered highest priority
//     first, then oldest, then ID. A victim in cooldown (now < NotBefore),
//     with a bad delay or an empty ID is skipped at once.
//  2. Every contender that fits as things are is placed
//     ([EngineResult.FitWithoutEviction]); no one is evicted for it.
//  3. For each other contender in order: its set search (see the package
//     documentation) looks, group by group ([Localizer]), for an
//     irreducible set of open victims it may evict (CanContend and every
//     filter allow it) whose eviction lets it fit, and commits the
//     cheapest one found ([EngineConfig.VictimCost]) as one transaction:
//     each victim committed, NotBefore = now + delay rounded up to the
//     second, Outcome.With its companions. Step 2 then runs again in the
//     room left.
//  4. The victims left are kept (no fit, a cheaper set, no contender),
//     skipped with a filter's denial, or deferred when a bound stopped the
//     pass or a set search.
//
// Guarantees: one [Outcome] per distinct nominated job; every committed
// victim is necessary (its contender did not fit without eviction, nor
// with any one victim of the set kept); the same result for any
// permutation of the input; a panicking callback leaves the model at the
// pass's last commit and the panic continues (a [*RestoreError] when that
// restore fails); a Run from a callback is refused ([ErrReentrantRun]).
// Cost: O(n log n + k log k) plus the examinations and attempts, bounded
// by the config. Run returns an error only for a nil model, a re-entrant
// call, or a model that broke the [Journal] or [Transactional] contract
// (the pass then stops, the rest deferred with [ReasonModelError]).
func (e *Engine) Run(now time.Time, in EngineInput, m Model) (EngineResult, error) {
	var res EngineResult
	if e.running {
		return res, ErrReentrantRun
	}
	if m == nil {
		return res, errors.New("requeue: nil model")
	}
	e.running = true
	done := false
	defer func() {
		if !done {
			r := e.restoreAfterPanic(recover())
			e.running = false
			if r != nil {
				panic(r)
			}
		}
	}()
	e.begin(now, m, &res)
	e.merge(&in)
	e.prepareContenders(in.Contenders, &res)
	e.prepareVictims()

	e.budget = e.perVictim
	e.fill("")
	e.buildGroups()
	for ci := range e.conts {
		if e.stop == "" && e.cfg.MaxVictims > 0 && res.Commits >= e.cfg.MaxVictims {
			e.stop = ReasonMaxVictims
		}
		if e.stop != "" {
			break
		}
		if !e.conts[ci].gone {
			e.serve(int32(ci))
		}
	}
	e.finish()
	slices.SortFunc(e.cerrs, func(a, b rankedError) int { return cmp.Compare(a.ci, b.ci) })
	for _, ce := range e.cerrs {
		res.ContenderErrors = append(res.ContenderErrors, ContenderError{Contender: e.conts[ce.ci].c.ID, Err: ce.err})
	}
	err := e.err
	e.endPass()
	e.running = false
	done = true
	return res, err
}

// prepareVictims emits the outcomes of the nominations without data or
// with an empty ID, orders the others, and skips those in cooldown or
// with a bad delay.
func (e *Engine) prepareVictims() {
	e.res.Outcomes = make([]Outcome, 0, len(e.entries))
	known := e.known[:0]
	for _, ent := range e.entries {
		switch {
		case ent.job == "":
			e.emit(Outcome{Job: ent.job, Nominators: ent.nominators, Kind: OutcomeSkipped, Decision: eligibility.Decision{Reason: ReasonInvalidID}})
		case ent.victim < 0:
			e.emit(Outcome{Job: ent.job, Nominators: ent.nominators, Kind: OutcomeSkipped, Decision: eligibility.Decision{Reason: ReasonUnknownVictim}})
		default:
			known = append(known, ent)
		}
	}
	e.orderVictims(known)
	e.known = known
	e.vs = slices.Grow(e.vs[:0], len(known))[:len(known)]
	for k, ent := range known {
		v := &e.victims[ent.victim]
		e.vs[k] = vstate{cost: ent.cost, overrun: ent.overrun, denyRank: -1}
		delay := e.cfg.DefaultDelay
		if v.HasRequeueDelay {
			delay = v.RequeueDelay
		}
		notBefore := notbefore.Ceil(e.now.Add(delay))
		o := Outcome{Job: ent.job, Nominators: ent.nominators, Kind: OutcomeSkipped}
		switch y := notBefore.Year(); {
		case !v.NotBefore.IsZero() && e.now.Before(v.NotBefore):
			o.Reason, o.Until = eligibility.ReasonCooldown, v.NotBefore
		case delay < 0 || y < 0 || y > 9999:
			o.Reason = ReasonInvalidDelay
		default:
			e.vs[k].notBefore = notBefore
			continue
		}
		e.vs[k].status = vDecided
		e.emit(o)
	}
}

// begin readies the engine for a pass.
func (e *Engine) begin(now time.Time, m Model, res *EngineResult) {
	if e.j == nil { // the zero Engine
		e.j = new(Journal)
		e.contIdx, e.shapeIdx = map[string]int32{}, map[string]int32{}
	}
	// Start from an empty log. Commit fails only on a journal in the middle
	// of a rollback, which Run (refusing re-entrant calls) never meets;
	// should it, a fresh journal is as good.
	if e.j.Commit() != nil {
		e.j = new(Journal)
	}
	e.now, e.res = now, res
	e.tx, _ = m.(Transactional)
	e.shaper, _ = m.(Shaper)
	e.bound, _ = m.(FitBounder)
	e.setBound, _ = m.(SetFitBounder)
	e.capBound, _ = m.(CapacityBounder)
	e.maxAttempts = cmp.Or(e.cfg.MaxAttempts, defaultMaxAttempts)
	e.maxChecks = cmp.Or(e.cfg.MaxChecks, defaultMaxChecks)
	e.perVictim = cmp.Or(e.cfg.MaxAttemptsPerVictim, defaultMaxAttemptsPerVictim)
	e.perVictimChecks = cmp.Or(e.cfg.MaxChecksPerVictim, defaultMaxChecksPerVictim)
	e.maxSetGroups = cmp.Or(e.cfg.MaxSetGroups, defaultMaxSetGroups)
	e.maxSetSize = cmp.Or(e.cfg.MaxSetSize, defaultMaxSetSize)
	e.setCandidates = cmp.Or(e.cfg.SetCandidates, defaultSetCandidates)
	e.loc, _ = m.(Localizer)
	e.stop, e.err, e.after, e.setBounded, e.closed, e.reordered = "", nil, "", false, 0, 0
	e.newState()
	e.base = e.save()
	e.model = m // from here on, a panic restores e.base
}

// endPass drops the pass's references (to the caller's strings and model)
// and empties the scratch space for the next pass.
func (e *Engine) endPass() {
	_ = e.j.Commit() // the savepoint of the last commit, with a Transactional model
	e.model, e.tx, e.shaper, e.bound, e.setBound, e.capBound, e.loc, e.res = nil, nil, nil, nil, nil, nil, nil, nil
	e.stop, e.err, e.after = "", nil, ""
	e.known, e.vs, e.groups = emptied(e.known), emptied(e.vs), emptied(e.groups)
	e.gflat, e.vgflat, e.vgcount, e.gorder = e.gflat[:0], e.vgflat[:0], e.vgcount[:0], e.gorder[:0]
	e.cand, e.cross, e.set, e.best, e.losers = e.cand[:0], e.cross[:0], e.set[:0], e.best[:0], e.losers[:0]
	e.entries, e.victims, e.conts = emptied(e.entries), emptied(e.victims), emptied(e.conts)
	clear(e.contIdx)
	clear(e.shapeIdx)
	e.shapes, e.live, e.heap, e.parked = e.shapes[:0], e.live[:0], e.heap[:0], e.parked[:0]
	e.cerrs = emptied(e.cerrs)
}

// emptied zeroes s (so that it keeps no pointer alive) and returns it with
// length 0, keeping its capacity for the next pass.
func emptied[S ~[]E, E any](s S) S {
	clear(s)
	return s[:0]
}

func (e *Engine) newState() {
	e.states++
	e.state = e.states
}

func (e *Engine) emit(o Outcome) {
	e.res.Wake = eligibility.Earliest(e.res.Wake, o.Until) // only skips have an Until
	e.res.Outcomes = append(e.res.Outcomes, o)
	if e.cfg.Observer != nil {
		e.cfg.Observer.Observe(eligibility.Event{Source: e.name(), Job: o.Job, Decision: o.Decision, Err: o.Err})
	}
}

// observe reports an event other than an outcome.
func (e *Engine) observe(job, other string, d eligibility.Decision, err error) {
	if e.cfg.Observer != nil {
		e.cfg.Observer.Observe(eligibility.Event{Source: e.name(), Job: job, Other: other, Decision: d, Err: err})
	}
}

// name is the Source of the engine's events.
func (e *Engine) name() string { return cmp.Or(e.cfg.Name, defaultEngineName) }

// fill places, in contender order, every available contender that fits
// without an eviction, committing each one: step 2 of Run. after names the
// first victim of the set whose commit came just before ("" at the start
// of the pass). Its failed attempts count against e.budget: shapes it
// cannot try are left untried (their failedAt not set), and a contender
// of theirs is tried alone before its set search.
func (e *Engine) fill(after string) {
	e.heap = e.heap[:0]
	for _, s := range e.live {
		if sh := &e.shapes[s]; sh.head >= 0 {
			sh.cursor = sh.head
			e.heap = append(e.heap, s)
		}
	}
	e.budget = e.perVictim
	e.sweep(after)
	e.compactLive()
}

// compactLive drops the shapes without contenders from e.live.
func (e *Engine) compactLive() {
	live := e.live[:0]
	for _, s := range e.live {
		if e.shapes[s].head >= 0 {
			live = append(live, s)
		}
	}
	e.live = live
}

func (e *Engine) filter(v *Victim, c *Contender) (eligibility.Decision, bool) {
	for _, f := range e.cfg.Filters {
		if verdict := f.FilterVictim(e.now, v, c); !verdict.Allowed {
			return verdict, false
		}
	}
	return eligibility.Decision{Allowed: true}, true
}

// RestoreError is the value [Engine.Run] panics with when a callback
// panicked and Run could not restore the model to its state at the pass's
// last commit: an undo step or the model's Rollback panicked or failed,
// during the restore or in the rollback the panic interrupted. A panicking
// undo step is dropped (see [Journal]), so what it should have undone
// stays, and the steps after it run on a state they were not recorded for.
//
// A model behind a RestoreError promises nothing: not its last commit, and
// not its own invariants either (a gang may be left running below its
// minimum, as when a hybrid model's Rollback panics and the journal's older
// steps undo evictions around a placement that stayed). Rebuild it from the
// cluster before using it again. The Engine itself is ready for the next
// pass. Without a RestoreError, the model is exactly at its last commit.
type RestoreError struct {
	// Panic is the value the callback panicked with.
	Panic any
	// Restore says what kept the restore from completing (several causes
	// joined with errors.Join).
	Restore error
}

// Error says that the model was not restored, with the panic and the
// restore's failure.
func (e *RestoreError) Error() string {
	return fmt.Sprintf("requeue: a callback panicked (%v) and the model was not restored to the pass's last commit (%v): rebuild it", e.Panic, e.Restore)
}

// Unwrap returns the restore's failure and, if the panic's value is an
// error, that error, for [errors.Is] and [errors.As].
func (e *RestoreError) Unwrap() []error {
	if err, ok := e.Panic.(error); ok {
		return []error{e.Restore, err}
	}
	return []error{e.Restore}
}
