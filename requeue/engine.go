package requeue

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/internal/notbefore"
)

// The default bounds of a pass, used where [EngineConfig] leaves a bound 0
// (each field's documentation gives its default, and [Engine.Config] shows
// the bounds in effect). They keep the cost of a pass predictable whatever
// the [Model]: at most 1,000,000 fit tests and 20,000,000 examinations (an
// eviction, a fit test, a call of a custom CanContend), and at most 500
// failed fit tests in each round of placements without eviction. A Model
// whose Place costs more than the reference model's should set a lower
// MaxAttempts.
const (
	defaultMaxAttempts     = 1_000_000
	defaultMaxChecks       = 20_000_000
	defaultMaxFillFailures = 500
)

// errReentrantRun is the error of [Engine.Run] called while a pass of the
// same Engine runs, from one of that pass's callbacks.
var errReentrantRun = errors.New("requeue: Run called from a callback of a pass of the same Engine")

// EngineConfig configures an [Engine]. The zero value is valid: a field
// left zero or nil takes the default it names; [Engine.Config] fills in
// the bounds and Name.
type EngineConfig struct {
	// DefaultDelay is the cooldown of a committed victim without its own
	// requeue delay. Must not be negative.
	DefaultDelay time.Duration
	// MaxVictims bounds the commits of a pass; 0 means no bound. The pass
	// stops before a set that would pass it ("max_victims"), then
	// places what fits as things are (a last round without eviction).
	MaxVictims int
	// MaxAttempts bounds the fit tests of a pass, whether [Model.Place]
	// answered them or a hint did ([EngineResult].Attempts); 0 means
	// 1,000,000. When reached the search under way is rolled back and the
	// pass stops ("max_attempts").
	MaxAttempts int
	// MaxFillFailures bounds the failed fit tests of each round of
	// placements without eviction (the first round, and the one after each
	// committed set); the contenders the round did not reach are tried as
	// things are when their turn comes. 0 means 500.
	MaxFillFailures int
	// MaxChecks bounds the examinations of a pass: an eviction, a fit test,
	// or a call of a custom CanContend. 0 means 20,000,000. When reached the
	// pass stops as for MaxAttempts ("max_checks"). Each contender's
	// set search may use an equal part of what the pass has left (the
	// examinations left divided by the contenders left, itself included);
	// a search that reaches its part stops ([EngineResult].OverShare), so a
	// contender no set can serve never uses up the pass for the ones behind
	// it.
	MaxChecks int
	// MaxLostWork caps the work one committed set may throw away for its
	// contender: the sum over its victims of Resources (1 when unknown)
	// times the seconds since the victim's LastCheckpoint (or Start when it
	// has none or it is after now), in resource-seconds (GPU-seconds when
	// Resources counts GPUs). A set over the cap is not committed: its
	// victims are kept with "lost_work" unless another contender's set
	// takes them. 0 means no cap; it must not be negative or NaN.
	MaxLostWork float64
	// VictimCost is the work evicting v at now throws away. A set costs the
	// sum; of two sets the cheaper wins, then the one whose most important
	// victim has the lower priority, then the larger total overrun. NaN counts
	// as +Inf. Nil means v's Resources (1 when unknown) times the hours since
	// its LastCheckpoint, or since Start when it has none or it is after now
	// (Volcano's checkpoint-aware victim ordering, volcano-sh/volcano PR
	// #5999); +Inf without either time, 0 for a Start after now.
	VictimCost func(now time.Time, v *Victim) float64
	// Filters are asked, in order, whether a victim a contender's search
	// reaches may be evicted for it (once per victim and contender; see
	// [VictimFilter]). No nil entries.
	Filters []VictimFilter
	// VictimOrder orders the victims (ties by ID): within a group, groups and
	// sets of equal cost, and the final outcomes. Nil means cheapest first by
	// VictimCost, then lowest priority, then largest overrun (now - Start -
	// Expected).
	VictimOrder func(now time.Time, a, b *Victim) int
	// CanContend says whether c may evict v, before the filters. Nil means
	// c.Priority > v.Priority.
	CanContend func(v *Victim, c *Contender) bool
	// ContendClass, with a custom CanContend, names the contenders that
	// CanContend treats alike: two contenders of one class (the same
	// non-negative key) get the same answer for every victim. It changes
	// what a pass costs, never what it decides: a contender that found no
	// set leaves its class's victims evicted, and the next ones of its
	// class are first tested against them (as the default CanContend's
	// priority classes are). Nil, or a negative key: each contender is a
	// class of its own.
	ContendClass func(c *Contender) int64
	// Observer, if not nil, receives the pass's [eligibility.Event]s in order,
	// from the pass's goroutine, with Source Name: one per outcome, one per
	// fit test in which the contender did not fit and per victim a filter
	// denied in a set that fitted ("rolled_back", Other the contender),
	// and one per placement without eviction ("fit_without_eviction").
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
		{"maxFillFailures", "MaxFillFailures", c.MaxFillFailures, defaultMaxFillFailures},
		{"maxChecks", "MaxChecks", c.MaxChecks, defaultMaxChecks},
	} {
		if b.v < 0 {
			errs = append(errs, keyErrorf(b.key, "requeue: negative %s %d (0 means the default, %d)", b.name, b.v, b.deflt))
		}
	}
	if c.MaxLostWork < 0 || math.IsNaN(c.MaxLostWork) {
		errs = append(errs, keyErrorf("maxLostWork", "requeue: MaxLostWork %v is negative or NaN (0 means no cap)", c.MaxLostWork))
	}
	for i, f := range c.Filters {
		if f == nil {
			errs = append(errs, keyErrorf(fmt.Sprintf("filters[%d]", i), "requeue: Filters[%d] is nil", i))
		}
	}
	return errors.Join(errs...)
}

// Engine runs requeue passes (see [Engine.Run]). It keeps scratch space,
// its Journal included, between passes. It is not safe for concurrent use.
// The zero Engine runs with the zero EngineConfig; a pass that panics
// leaves it ready for the next.
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
	res         *EngineResult
	maxAttempts int
	maxChecks   int
	fillMax     int                // MaxFillFailures or its default
	shareEnd    int                // the examination count at which the current search stops
	stop        eligibility.Reason // the bound (or model failure) that stopped the pass
	err         error              // the first broken model contract
	txErr       error              // the first Rollback error of the current undo
	undoing     bool               // an undo runs (left set when a step panics)
	base        mark               // the state of the last commit
	// state names the model's current state: a fresh number for every state
	// the pass reaches by a change, restored by undo. A shape that did not
	// fit in state s (shapeState.failedAt == s) is not tried again in s.
	state, states uint64
	after         string // the first victim of the last committed set
	left          int    // contenders available (neither placed nor dropped)
	chead         int32  // the first available contender, -1 if none
	// The stack: the victims evicted on top of the last commit, each with
	// the mark before its eviction. While stackFull is set it holds every
	// open victim the contenders of class stackClass (see classOf) may use,
	// their search having found no set.
	stack []level
	// floor sums, over the pass's committed sets, the length of the
	// eligible list up to the set's last victim: the evictions any search
	// with only Evict and Place must make to show that no shorter prefix
	// lets the contender fit (the benchmarks report it).
	floor         int
	evictErrs     int  // Evict errors so far: a search that meets one starts again
	searching     bool // a set search runs: its examinations count against its share
	over          bool // the search reached its share
	cur           int  // the contender being served
	behind        int  // available contenders before it
	stackFull     bool
	stackClass    int64
	stackIsPrefix bool // the stack holds a prefix of elig (during a gallop)
	// topClasses are the classes whose every victim the pass evicted for a
	// contender over its share (see hopeless).
	topClasses []int64
	// The eligible list of the current search, in victim order: elig[i] is
	// its i-th victim; scan is the rank from which the list goes on.
	elig    []int32
	denials []int32 // the victims the filters denied for the contender searched for, in victim order
	scan    int32
	done    bool // the list holds every eligible victim
	// The victims' priorities, distinct and sorted, and per block of
	// blockSize ranks the lowest priority of its open victims: the default
	// CanContend skips the blocks no victim of which it may evict.
	prios    []int32
	blockMin []int32
	// scratch, reused across passes
	nomsIn    []VictimNomination // the nominations of EngineInput, Nominated's included
	victimsIn []Victim           // the victims of EngineInput, Nominated's included
	noms      []VictimNomination
	idKeys    []idKey
	vkeys     []victimKey
	knownTmp  []victimEntry
	entries   []victimEntry
	victims   []Victim    // merged, one per ID
	conts     []contender // sorted, deduplicated
	contIdx   map[string]int32
	shapes    []shapeState
	shapeIdx  map[string]int32
	hintJobs  []string
	hintFits  []bool
	cerrs     []rankedError
	known     []victimEntry // the victims with data, in victim order (their rank)
	vs        []vstate      // by rank
	set       []int32       // the set a search found
	tmp       []int32       // a set being tested
}

// level is one victim of the stack, and the mark before its eviction.
type level struct {
	k int32
	m mark
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

// contender is a contender of the pass. The available ones (neither
// placed nor dropped) form a list in contender order.
type contender struct {
	c          Contender
	shape      int32
	next, prev int32
	gone       bool   // placed, or dropped after a Place error
	tried      bool   // its turn came (serve ran)
	freeAt     uint64 // a state in which it was tested as things are and did not fit
}

// shapeState is one group of interchangeable contenders (one contender
// without a [Shaper]).
type shapeState struct {
	failedAt uint64 // a state in which the shape does not fit
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
	c.MaxFillFailures = cmp.Or(c.MaxFillFailures, defaultMaxFillFailures)
	c.Name = e.name()
	return c
}

// Run performs one pass at instant now: it merges the input, skips victims
// in cooldown (now < NotBefore) or with bad data, places the contenders
// that fit as things are, then serves the others in order by set searches
// (see the package doc), committing each set as one transaction with
// NotBefore = now + delay rounded up to the second. Run returns an error
// only for a nil model, a call from one of the pass's own callbacks
// (changing nothing), or a model that broke the Journal or Transactional
// contract (the rest is then deferred with "model_error"). A panicking
// callback leaves the model at the pass's last commit and the panic goes
// on, as a [*RestoreError] when that restore fails. Cost: O(n log n + k
// log k) plus the examinations and attempts, bounded by the config.
func (e *Engine) Run(now time.Time, in EngineInput, m Model) (EngineResult, error) {
	var res EngineResult
	if e.running {
		return res, errReentrantRun
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

	e.buildIndex()
	e.fill("", len(e.conts))
	e.serveAll()
	e.lastRound()
	slices.SortFunc(e.cerrs, func(a, b rankedError) int { return cmp.Compare(a.ci, b.ci) })
	for _, ce := range e.cerrs {
		res.ContenderProblems = append(res.ContenderProblems, contenderProblem{Contender: e.conts[ce.ci].c.ID, Err: ce.err})
	}
	err := e.err
	e.endPass()
	e.running = false
	done = true
	return res, err
}

// serveAll gives every available contender its turn, in contender order,
// until a bound stops the pass: step 3 of Run.
func (e *Engine) serveAll() {
	for ci := range e.conts {
		if e.stop == "" && e.cfg.MaxVictims > 0 && e.res.Commits >= e.cfg.MaxVictims {
			e.stop = reasonMaxVictims
		}
		if e.stop != "" {
			break
		}
		e.cur = ci
		if !e.conts[ci].gone {
			e.serve(int32(ci))
			if c := &e.conts[ci]; !c.gone {
				e.behind++
				c.tried = e.stop == "" // a bound cut its turn short: untried
			}
		}
	}
	e.popTo(0) // the last search's evictions (kept to serve the next contender) go
	e.cur = len(e.conts)
}

// lastRound emits the victims' outcomes, then places, as things are, the
// contenders whose search failed and that fit in the room the commits
// left (it evicts nothing), and counts the contenders left undecided.
func (e *Engine) lastRound() {
	e.finish()
	if e.stop == "" || e.stop == reasonMaxVictims {
		e.fill(e.after, len(e.conts))
	}
	for ci := range e.conts {
		if !e.conts[ci].gone && !e.conts[ci].tried {
			e.res.Untried++
		}
	}
	e.res.Stop = e.stop
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
		notBefore := notbefore.Ceil(clock.AddSaturating(e.now, delay))
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
	e.maxAttempts = cmp.Or(e.cfg.MaxAttempts, defaultMaxAttempts)
	e.maxChecks = cmp.Or(e.cfg.MaxChecks, defaultMaxChecks)
	e.fillMax = cmp.Or(e.cfg.MaxFillFailures, defaultMaxFillFailures)
	e.stop, e.err, e.after = "", nil, ""
	e.stack, e.stackFull, e.topClasses, e.floor = e.stack[:0], false, e.topClasses[:0], 0
	e.newState()
	e.base = e.save()
	e.model = m // from here on, a panic restores e.base
}

// endPass drops the pass's references (to the caller's strings and model)
// and empties the scratch space for the next pass.
func (e *Engine) endPass() {
	_ = e.j.Commit() // the savepoint of the last commit, with a Transactional model
	e.model, e.tx, e.shaper, e.bound, e.res = nil, nil, nil, nil, nil
	e.stop, e.err, e.after = "", nil, ""
	e.known, e.vs = emptied(e.known), emptied(e.vs)
	e.stack, e.elig, e.set, e.tmp = emptied(e.stack), e.elig[:0], e.set[:0], e.tmp[:0]
	e.prios, e.blockMin = e.prios[:0], e.blockMin[:0]
	e.entries, e.victims, e.conts = emptied(e.entries), emptied(e.victims), emptied(e.conts)
	clear(e.contIdx)
	clear(e.shapeIdx)
	e.shapes = e.shapes[:0]
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

// freeFit reports a contender placed without an eviction, after the
// commit of victim after ("" at the start of the pass), in the result and
// to the observer.
func (e *Engine) freeFit(contender, after string) {
	ev := eligibility.Event{Source: e.name(), Job: contender, Other: after, Decision: eligibility.Decision{Allowed: true, Reason: reasonFitWithoutEviction}}
	e.res.FitWithoutEviction = append(e.res.FitWithoutEviction, ev)
	if e.cfg.Observer != nil {
		e.cfg.Observer.Observe(ev)
	}
}

// name is the Source of the engine's events.
func (e *Engine) name() string { return cmp.Or(e.cfg.Name, defaultEngineName) }

func (e *Engine) filter(v *Victim, c *Contender) (eligibility.Decision, bool) {
	for _, f := range e.cfg.Filters {
		if verdict := f.FilterVictim(e.now, v, c); !verdict.Allowed {
			return verdict, false
		}
	}
	return eligibility.Decision{Allowed: true}, true
}

// RestoreError is the value [Engine.Run] panics with when a callback
// panicked and the model could not be restored to the pass's last commit
// (an undo step or the model's Rollback panicked or failed). The model then
// promises nothing, its own invariants included: rebuild it. The Engine is
// ready for the next pass.
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
