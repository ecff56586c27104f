package requeue

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
)

// The default bounds of a pass, used where [EngineConfig] leaves a bound 0.
// They keep the cost of a pass predictable whatever the [Model]: at most
// DefaultMaxAttempts calls of [Model.Place], DefaultMaxChecks contender
// examinations, and DefaultMaxAttemptsPerVictim failed attempts for one
// victim.
//
// On the reference cluster.Model, measured in the engine's benchmarks on a
// shared two-core machine, an attempt costs 0.1 to 0.5 µs, fragmented
// clusters included (a request that fits no node is searched for in
// O(nodes) once, then answered from the nodes freed since: 0.2 µs per
// evict, failed place and rollback on 20,000 fragmented nodes, against
// 91 µs without that memory), and an examination 20 to 80 ns; so the
// defaults cap a pass at a few tenths of a second of the engine's own
// work (a pass over 100,000 nominations and 10,000 contenders without the
// Cluster's hints stops at the examinations bound in 0.17 to 0.18 s). With
// its hints, a pass over 100,000 nominations and 10,000 contenders of 16
// shapes on 50,000 nodes uses 7,582 attempts and 1.7 million examinations
// (0.24 s). A Model whose Place costs more should set a lower MaxAttempts.
//
// DefaultMaxAttemptsPerVictim is DefaultMaxAttempts/200: at least 200
// victims can spend their whole share before the pass bound stops the
// pass. A victim rarely needs as much when the model helps (with a
// [Shaper], one failed attempt per shape and placement), and without help
// it keeps victims that no contender can use from starving the rest: 30
// such victims ahead of 100 evictable ones, with 4,000 contenders, cost
// 15,000 failed attempts, and all 100 are committed in 65,600 attempts
// (with 1,000 per victim, 69 would be).
const (
	DefaultMaxAttempts          = 100_000
	DefaultMaxChecks            = 10_000_000
	DefaultMaxAttemptsPerVictim = DefaultMaxAttempts / 200 // 500
)

// ErrReentrantRun is the error of [Engine.Run] called while a pass of the
// same Engine runs, that is, from one of that pass's callbacks (a model
// method, a filter, the observer, ...). The call changes nothing and the
// running pass goes on.
var ErrReentrantRun = errors.New("requeue: Run called from a callback of a pass of the same Engine")

// EngineConfig configures an [Engine]. The zero value is valid: no default
// delay (a committed victim's not-before is now, rounded up to the second,
// unless it has its own requeue delay), the default bounds, no filters, the
// default orders, no observer.
type EngineConfig struct {
	// DefaultDelay is the cooldown written for a committed victim without
	// its own requeue delay ("determined by the Requeue action" in
	// KAI-Scheduler's expected-runtime proposal). Must not be negative.
	DefaultDelay time.Duration
	// MaxVictims bounds the victims a pass evicts (commits); 0 means no
	// bound. When reached, the remaining nominations are deferred with
	// [ReasonMaxVictims].
	MaxVictims int
	// MaxAttempts bounds the [Model.Place] calls of a pass; 0 means
	// [DefaultMaxAttempts]. When reached, a victim that already placed a
	// contender is committed; otherwise its eviction is rolled back; it (if
	// not committed) and the remaining nominations are deferred with
	// [ReasonMaxAttempts].
	MaxAttempts int
	// MaxAttemptsPerVictim bounds the failed [Model.Place] calls (no fit,
	// or a fit the filters denied) made for one victim: in its resources,
	// and then in the room its commit left; the placements without eviction
	// at the start of the pass get the same bound. 0 means
	// [DefaultMaxAttemptsPerVictim]. When a victim reaches it, its sweep
	// stops: it is committed if a contender was kept, otherwise its
	// eviction is rolled back and it is kept with
	// [ReasonMaxVictimAttempts]; the pass goes on with the next victim. A
	// contender the bound left untried in the current state is not tried
	// for a later victim until a placement attempt without eviction found
	// it not fitting (after a later commit), since no eviction may be
	// committed for a contender that might fit without it; a victim for
	// which such a contender was left out, and none fitted, is kept with
	// ReasonMaxVictimAttempts too.
	MaxAttemptsPerVictim int
	// MaxChecks bounds the contender examinations of a pass; 0 means
	// [DefaultMaxChecks]. An examination looks at one contender (or one
	// group of interchangeable contenders, see [Shaper]) for one victim or
	// for a placement without eviction, and calls each callback
	// (CanContend, [FitBounder.MayFit], the filters, [Model.Place]) at most
	// once. When reached, the pass stops as for MaxAttempts, with
	// [ReasonMaxChecks].
	MaxChecks int
	// Filters are asked, in order, whether a victim may be evicted for a
	// contender that fits in its resources; see [VictimFilter]. No nil
	// entries.
	Filters []VictimFilter
	// VictimOrder orders the victims (a three-way comparison; ties are
	// broken by job ID). Nil means [VictimDefaultOrder].
	VictimOrder func(now time.Time, a, b *Victim) int
	// CanContend says whether a contender may use a victim's resources. Nil
	// means [ContenderDefaultEligible]: strictly higher priority.
	CanContend func(v *Victim, c *Contender) bool
	// Observer, if not nil, receives the pass's events, in the order they
	// happen, from the goroutine running the pass, each with Source Name:
	// one [eligibility.Event] per outcome (its Decision is the outcome's,
	// Job the nominated job, Err the outcome's Err), one per rolled-back
	// placement attempt in a victim's resources (Reason [ReasonRolledBack],
	// Job the victim, Other the contender, Err the Place error if any), and
	// one per placement without eviction (Allowed, Reason
	// [ReasonFitWithoutEviction], Job the contender, Other FreeFit.After).
	Observer eligibility.Observer
	// Name is the Source of the engine's events; [DefaultEngineName] when
	// empty.
	Name string
}

// DefaultEngineName is the Source of an [Engine]'s events when
// [EngineConfig.Name] is empty.
const DefaultEngineName = "requeue"

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
		errs = append(errs, fmt.Errorf("requeue: negative MaxAttempts %d (0 means the default, %d)", c.MaxAttempts, DefaultMaxAttempts))
	}
	if c.MaxAttemptsPerVictim < 0 {
		errs = append(errs, fmt.Errorf("requeue: negative MaxAttemptsPerVictim %d (0 means the default, %d)", c.MaxAttemptsPerVictim, DefaultMaxAttemptsPerVictim))
	}
	if c.MaxChecks < 0 {
		errs = append(errs, fmt.Errorf("requeue: negative MaxChecks %d (0 means the default, %d)", c.MaxChecks, DefaultMaxChecks))
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
// higher-priority contenders can run (the Requeue action of KAI-Scheduler's
// expected-runtime proposal). See [Engine.Run] for the algorithm.
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
	res         *EngineResult
	maxAttempts int
	maxChecks   int
	perVictim   int                // MaxAttemptsPerVictim or its default
	budget      int                // failed attempts left to the current victim (or fill)
	stop        eligibility.Reason // the bound (or model failure) that stopped the pass
	err         error              // the first broken model contract
	txErr       error              // the first Rollback error of the current undo
	undoing     bool               // an undo runs (left set when a step panics)
	base        mark               // the state of the last commit
	// state names the model's current state: a fresh number for every state
	// the pass reaches by keeping a change, restored by undo. A shape that
	// did not fit in state s (shapeState.failedAt == s) is not tried again
	// until the state changes.
	state, states uint64
	out           []string // backing array of the pass's Outcome.Contenders

	// scratch, reused across passes
	noms      []VictimNomination
	entries   []victimEntry
	victims   []Victim // merged, one per ID
	victimIdx map[string]int32
	conts     []contender // sorted, deduplicated
	contIdx   map[string]int32
	shapes    []shapeState
	shapeIdx  map[string]int32
	live      []int32 // shapes that may still have contenders
	heap      []int32 // shapes to examine, by their cursor's contender order
	parked    []int32 // shapes that did not fit in the current state
	hintJobs  []string
	hintFits  []bool
	cerrs     []rankedError
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
	// The victim order's keys: the default order's priority and overrun,
	// and the entry's rank by job ID (the last tie-breaker).
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
	}
	if order := e.cfg.VictimOrder; order != nil {
		slices.SortFunc(known, func(a, b victimEntry) int {
			return cmp.Or(order(e.now, &e.victims[a.victim], &e.victims[b.victim]), cmp.Compare(a.rank, b.rank))
		})
		return
	}
	slices.SortFunc(known, func(a, b victimEntry) int {
		if a.priority != b.priority {
			return cmp.Compare(a.priority, b.priority)
		}
		if a.overrun != b.overrun {
			return cmp.Compare(b.overrun, a.overrun)
		}
		return cmp.Compare(a.rank, b.rank)
	})
}

// contender is a contender of the pass, in the list of its shape's
// contenders still available (neither placed nor failed), in contender
// order.
type contender struct {
	c          Contender
	shape      int32
	next, prev int32
}

// shapeState is one group of interchangeable contenders.
type shapeState struct {
	head, tail int32  // available contenders, in contender order
	cursor     int32  // the contender a sweep examines next
	failedAt   uint64 // a state in which the shape does not fit
	// checkedAt is a state without an uncommitted eviction in which the
	// shape does not fit: a victim's sweep tries only the shapes checked
	// in the state before its eviction.
	checkedAt uint64
	fitAt     uint64 // a state in which it fits (a placement rolled back after a filter's denial)
	hintAt    uint64 // a state in which MayFit answered true
	mayFit    bool   // scratch: MayFit before evicting the current victim
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

// Config returns the engine's configuration.
func (e *Engine) Config() EngineConfig {
	c := e.cfg
	c.Filters = slices.Clone(c.Filters)
	return c
}

// Run performs one pass at instant now.
//
//  1. Input. Nominations are merged by job ID; each job's nominator names
//     are sorted and deduplicated. Victim data for one job is merged field
//     by field (see [EngineInput.Victims]); a nominated job without data is
//     skipped with [ReasonUnknownVictim]. Contenders are ordered
//     highest priority first, then oldest Queued, then ID; of duplicate IDs
//     the first in that order is kept, and a contender that is also
//     nominated is dropped with [ErrContenderNominated]. Victims are ordered
//     by [EngineConfig.VictimOrder] (default: lowest priority, largest
//     overrun, ID).
//
//  2. Placements without eviction. Run first places, in contender order,
//     every contender that fits in the model as it is, and reports them in
//     [EngineResult.FitWithoutEviction]. No victim is ever evicted for a
//     contender that fits without an eviction.
//
//  3. Victims, in order, until a bound is reached. A victim in cooldown
//     (now < NotBefore) is skipped with Until = NotBefore; one with a
//     negative delay is skipped. Otherwise its contenders are the
//     available ones that may use its resources ([EngineConfig.CanContend];
//     none: kept, [ReasonNoContender]). If the model can tell that
//     none of them fits even with the victim gone ([FitBounder]), the
//     victim is kept ([ReasonNoFit]) without being evicted.
//     Otherwise the engine takes a checkpoint, evicts it ([Model.Evict]),
//     and tries the contenders: each time the first one, in contender
//     order, not yet tried in the current state; a contender that fits is
//     kept if every filter allows evicting the victim for it, else its
//     placement is rolled back. One eviction can thus start several
//     contenders. If any was kept, the victim is committed
//     ([OutcomeCommitted], NotBefore = now + delay rounded up to the
//     second) and step 2 runs again in the room the commit left; contenders
//     placed there are reported with the victim in FreeFit.After. If none
//     was kept, the eviction is rolled back: the victim is skipped with the
//     filters' reason if a contender fitted but was denied (the first
//     denial in contender order, Until the earliest denial Until), else
//     kept ([ReasonNoFit]).
//
//     [EngineConfig.MaxAttemptsPerVictim] bounds the failed attempts made
//     for one victim (in its resources and then in the room its commit
//     left) and those of step 2 at the start of the pass: past it, the
//     remaining contenders are left untried in that state. A victim is
//     only ever evicted for contenders that were tried without its
//     eviction in the state before it, so one whose own attempts were cut
//     short, or for which contenders were left untried, and which kept no
//     contender, is kept with [ReasonMaxVictimAttempts]; the pass goes on.
//
//  4. When a pass-wide bound stops the pass, the current (uncommitted)
//     victim and all remaining ones are deferred.
//
// # Limits
//
// Each eviction must make room for a contender on its own: a contender
// that fits only once two or more victims are gone (a 8-GPU job on a node
// where two 4-GPU victims run) is never served, since the engine never
// evicts one victim in the hope that another eviction completes the room.
// Such a contender needs the scheduler's own preemption, or victims
// nominated as one job.
//
// # Guarantees
//
// Every distinct nominated job gets exactly one [Outcome]. Every committed
// eviction is necessary: each contender placed in a victim's resources was
// tried without that eviction, in the state the pass had reached, and did
// not fit. The result is the same for any permutation of the nominations,
// the victims and the contenders. The model ends the pass with the
// committed evictions and placements (those without eviction included)
// applied and nothing else.
//
// If a callback panics (a method of the [Model] or of its optional
// interfaces, an undo step, a filter, CanContend, VictimOrder, the
// Observer), Run rolls the model back to its state at the last commit of
// the pass and lets the panic continue with its value; the Engine stays
// usable. The model keeps the commits made before the panic, which no
// result reports: an embedder that recovers should rebuild its model from
// the cluster. The rollback cannot always be completed: when the panic
// came from an undo step or the model's Rollback (the journal drops a
// panicking step, so its change stays), or when one of them panics or
// Rollback fails during the restore, Run does what it can (it goes on past
// a panicking step) and the panic continues with a [*RestoreError] that
// holds the original value and says what failed: the model is then NOT at
// its last commit, and must be rebuilt before any further use.
//
// # Cost
//
// O(n log n + k log k) for n nominations and k contenders, plus the
// examinations and placement attempts, bounded by [EngineConfig.MaxChecks]
// and [EngineConfig.MaxAttempts]. In one state of the model a contender is
// tried at most once; with a [Shaper] model, one contender stands for all
// of its shape, and with a [FitBounder] model hopeless attempts cost no
// Place (and hopeless victims no eviction), so a pass over many contenders
// of few shapes costs O(n·shapes) examinations and attempts in proportion
// to the commits. A Model without these interfaces pays one Place per
// contender for each victim it tries (and one per contender after each
// commit that the victim's attempt did not try), at most
// [EngineConfig.MaxAttemptsPerVictim] failed ones per victim, up to the
// pass's bounds. Run allocates the result and O(n + k) scratch space on
// the first pass; later passes reuse it.
//
// Run returns an error only for a nil model, for a call made while a pass
// of the same Engine runs ([ErrReentrantRun]: from one of its callbacks;
// nothing is done and the running pass goes on), or for a model that broke
// the [Journal] or [Transactional] contract (committed or rolled back the
// engine's journal itself, or failed a Rollback); the pass then stops, the
// remaining victims are deferred with [ReasonModelError], and the model's
// state is unreliable.
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

	res.Outcomes = make([]Outcome, 0, len(e.entries))
	known := e.entries[:0]
	for _, ent := range e.entries {
		if ent.victim < 0 {
			e.emit(Outcome{Job: ent.job, Nominators: ent.nominators, Kind: OutcomeSkipped, Decision: eligibility.Decision{Reason: ReasonUnknownVictim}})
			continue
		}
		known = append(known, ent)
	}
	e.orderVictims(known)

	e.budget = e.perVictim
	e.fill("")
	for k, ent := range known {
		if e.stop == "" && e.cfg.MaxVictims > 0 && res.Commits >= e.cfg.MaxVictims {
			e.stop = ReasonMaxVictims
		}
		if e.stop == "" && e.tryVictim(ent) {
			continue
		}
		// A bound (or a model failure) stopped the pass before ent was
		// decided.
		for _, rest := range known[k:] {
			e.emit(Outcome{Job: rest.job, Nominators: rest.nominators, Kind: OutcomeDeferred, Decision: eligibility.Decision{Reason: e.stop}})
		}
		break
	}
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

// begin readies the engine for a pass.
func (e *Engine) begin(now time.Time, m Model, res *EngineResult) {
	if e.j == nil { // the zero Engine
		e.j = new(Journal)
		e.victimIdx = map[string]int32{}
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
	e.maxAttempts = cmp.Or(e.cfg.MaxAttempts, DefaultMaxAttempts)
	e.maxChecks = cmp.Or(e.cfg.MaxChecks, DefaultMaxChecks)
	e.perVictim = cmp.Or(e.cfg.MaxAttemptsPerVictim, DefaultMaxAttemptsPerVictim)
	e.stop, e.err, e.out = "", nil, nil
	e.newState()
	e.base = e.save()
	e.model = m // from here on, a panic restores e.base
}

// endPass drops the pass's references (to the caller's strings and model)
// and empties the scratch space for the next pass.
func (e *Engine) endPass() {
	_ = e.j.Commit() // the savepoint of the last commit, with a Transactional model
	e.model, e.tx, e.shaper, e.bound, e.res, e.out = nil, nil, nil, nil, nil, nil
	e.stop, e.err = "", nil
	clear(e.entries)
	e.entries = e.entries[:0]
	clear(e.victims)
	e.victims = e.victims[:0]
	clear(e.conts)
	e.conts = e.conts[:0]
	clear(e.victimIdx)
	clear(e.contIdx)
	clear(e.shapeIdx)
	e.shapes, e.live, e.heap, e.parked = e.shapes[:0], e.live[:0], e.heap[:0], e.parked[:0]
	clear(e.cerrs)
	e.cerrs = e.cerrs[:0]
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
func (e *Engine) name() string { return cmp.Or(e.cfg.Name, DefaultEngineName) }

// tryVictim decides one victim and emits its outcome. It returns false when
// a bound stopped the pass before the victim was decided (nothing emitted;
// its eviction rolled back).
func (e *Engine) tryVictim(ent victimEntry) bool {
	v := &e.victims[ent.victim]
	o := Outcome{Job: ent.job, Nominators: ent.nominators}
	if !v.NotBefore.IsZero() && e.now.Before(v.NotBefore) {
		o.Kind, o.Reason, o.Until = OutcomeSkipped, eligibility.ReasonCooldown, v.NotBefore
		e.emit(o)
		return true
	}
	delay := e.cfg.DefaultDelay
	if v.HasRequeueDelay {
		delay = v.RequeueDelay
	}
	notBefore := eligibility.NotBeforeCeil(e.now.Add(delay))
	if y := notBefore.Year(); delay < 0 || y < 0 || y > 9999 {
		o.Kind, o.Reason = OutcomeSkipped, ReasonInvalidDelay
		e.emit(o)
		return true
	}

	// Which shapes have contenders for v, and may any fit once v is gone?
	// Decided before any checkpoint: a hopeless victim is never evicted.
	// Only the shapes known not to fit without the eviction are tried;
	// untried ones (left so by the per-victim bound) are not.
	e.heap = e.heap[:0]
	mayFit, untried := false, false
	for _, s := range e.live {
		sh := &e.shapes[s]
		if sh.head < 0 {
			continue
		}
		if e.res.Checks >= e.maxChecks {
			e.stop = ReasonMaxChecks
			return false
		}
		e.res.Checks++
		ci := e.eligibleFrom(sh.head, v)
		if ci < 0 {
			if e.stop != "" {
				return false
			}
			continue
		}
		if sh.checkedAt != e.state {
			untried = true
			continue
		}
		sh.cursor = ci
		e.heap = append(e.heap, s)
	}
	// Ask the model about all of them at once.
	if e.bound != nil && len(e.heap) > 0 {
		e.hintJobs, e.hintFits = e.hintJobs[:0], e.hintFits[:0]
		for _, s := range e.heap {
			e.hintJobs = append(e.hintJobs, e.conts[e.shapes[s].cursor].c.ID)
			e.hintFits = append(e.hintFits, true) // what the model leaves unset may fit
		}
		e.bound.MayFit(v.ID, e.hintJobs, e.hintFits)
		clear(e.hintJobs)
	}
	for i, s := range e.heap {
		sh := &e.shapes[s]
		sh.mayFit = e.bound == nil || e.hintFits[i]
		mayFit = mayFit || sh.mayFit
	}
	switch {
	case (len(e.heap) == 0 || !mayFit) && untried:
		o.Kind, o.Reason = OutcomeKept, ReasonMaxVictimAttempts
		e.emit(o)
		return true
	case len(e.heap) == 0:
		o.Kind, o.Reason = OutcomeKept, ReasonNoContender
		e.emit(o)
		return true
	case !mayFit:
		o.Kind, o.Reason = OutcomeKept, ReasonNoFit
		e.emit(o)
		return true
	}

	before := e.save()
	if err := e.model.Evict(e.j, v.ID); err != nil {
		e.undo(before)
		o.Kind, o.Reason, o.Err = OutcomeSkipped, ReasonEvictError, err
		e.emit(o)
		return true
	}
	e.newState()
	for _, s := range e.heap {
		if sh := &e.shapes[s]; sh.mayFit {
			sh.hintAt = e.state
		} else {
			sh.failedAt = e.state
		}
	}
	a := attempt{victim: v, denyRank: -1, first: len(e.out)}
	e.budget = e.perVictim
	e.sweep(&a)
	e.compactLive()
	if len(e.out) > a.first && e.err == nil {
		e.commit()
		e.res.Commits++
		o.Kind, o.Allowed, o.Reason = OutcomeCommitted, true, ReasonCommitted
		o.Contenders = e.out[a.first:len(e.out):len(e.out)]
		o.NotBefore, o.Annotation = notBefore, eligibility.FormatNotBefore(notBefore)
		e.emit(o)
		if e.stop == "" {
			e.fill(v.ID)
		}
		return true
	}
	e.undo(before)
	switch {
	case a.bounded || e.err != nil:
		return false
	case a.cut || untried:
		o.Kind, o.Reason = OutcomeKept, ReasonMaxVictimAttempts
	case a.denyRank >= 0:
		o.Kind, o.Reason, o.Until = OutcomeSkipped, a.denyReason, a.denyUntil
	default:
		o.Kind, o.Reason = OutcomeKept, ReasonNoFit
	}
	e.emit(o)
	return true
}

// fill places, in contender order, every available contender that fits
// without an eviction, committing each one: step 2 of Run. after names the
// victim whose commit came just before ("" at the start of the pass). Its
// failed attempts count against e.budget: shapes it cannot try are left
// untried in the resulting state (checkedAt not set).
func (e *Engine) fill(after string) {
	e.heap = e.heap[:0]
	for _, s := range e.live {
		if sh := &e.shapes[s]; sh.head >= 0 {
			sh.cursor = sh.head
			e.heap = append(e.heap, s)
		}
	}
	a := attempt{after: after, denyRank: -1}
	e.sweep(&a)
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

// eligibleFrom returns the first contender, from ci on in its shape's list,
// that may use v's resources (any contender when v is nil), or -1. It stops
// with -1 when MaxChecks is reached.
func (e *Engine) eligibleFrom(ci int32, v *Victim) int32 {
	switch {
	case v == nil:
		return ci
	case e.cfg.CanContend == nil:
		// The list is in contender order: highest priority first.
		if ci >= 0 && e.conts[ci].c.Priority > v.Priority {
			return ci
		}
		return -1
	}
	for ; ci >= 0; ci = e.conts[ci].next {
		if e.res.Checks >= e.maxChecks {
			e.stop = ReasonMaxChecks
			return -1
		}
		e.res.Checks++
		if e.cfg.CanContend(v, &e.conts[ci].c) {
			return ci
		}
	}
	return -1
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
// stays. The model is NOT known to be at its last commit: rebuild it from
// the cluster before using it again. The Engine itself is ready for the
// next pass.
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
