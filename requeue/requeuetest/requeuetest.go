package requeuetest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/tenurepolicy/tenure/requeue"
)

// Options tunes how [TestModel] explores a model. The zero Options is the
// default.
type Options struct {
	// Seed seeds the random sequences; 0 means 1. The same seed drives the
	// same operations, so a failure is replayed with the Seed its error
	// names.
	Seed uint64
	// Sequences is the number of sequences, each on a fresh model; 0 or
	// less means 100.
	Sequences int
	// Steps is the number of operations per sequence; 0 or less means 50.
	Steps int
	// StrictSavepoints demands, of a [requeue.Transactional] model, that
	// Rollback refuse every value that is not a valid savepoint, even one
	// naming a state the model could restore exactly. A never-repeating
	// counter plus a stack of the valid savepoints passes; serial numbers
	// of operations do not, and need not (the engine only rolls back to
	// valid savepoints).
	StrictSavepoints bool
	// AllowUnexercised passes a fixture on which some outcome never
	// happens (no Evict or Place succeeds, no Place returns false, MayFit
	// never rules a job out, or no two pending jobs share a shape); the
	// parts of the contract that outcome exercises then go unchecked.
	// Without it, such a fixture is an error naming what never happened.
	AllowUnexercised bool
}

// Defaults of [Options].
const (
	defaultSeed      = 1
	defaultSequences = 100
	defaultSteps     = 50
)

type config struct {
	seed      uint64
	sequences int
	steps     int
	strict    bool
	partial   bool
}

// TestModel checks that the models newModel returns honour the
// [requeue.Model] contract, restore their state exactly, and keep the
// contracts of the optional interfaces they implement (see the package
// doc). newModel must return a fresh model in the same state at every
// call, in which the jobs in running run and those in pending wait; state
// renders a model's state as text, equal exactly when the states are. opts
// holds at most one [Options]. It returns nil, an error for the first
// check that failed (see the package doc for what it says), or an error for invalid arguments, a panic in the
// first comparison of two fresh models, or a fixture that never exercises
// part of the contract. It calls everything from the calling goroutine.
func TestModel[M requeue.Model](newModel func() M, state func(M) string, running, pending []string, opts ...Options) error {
	if len(opts) > 1 {
		return errors.New("requeuetest: more than one Options")
	}
	cfg := configOf(opts)
	if newModel == nil || state == nil {
		return errors.New("requeuetest: newModel and state must not be nil")
	}
	jobs, unknown, err := jobList(running, pending)
	if err != nil {
		return err
	}
	var fresh string
	if err := safely(func() {
		fresh = state(newModel())
		if again := state(newModel()); again != fresh {
			panic(fmt.Sprintf("two fresh models differ:\n%s\n%s", fresh, again))
		}
	}); err != nil {
		return fmt.Errorf("requeuetest: %v", err)
	}
	cov, err := hintsOf(newModel)
	if err != nil {
		return err
	}
	// The answers by state text are kept across sequences: each starts from
	// a fresh model in the same state, so a hidden memory that outlives one
	// sequence's states (a refusal remembered for good) is caught too.
	answers := map[string]map[string]string{}
	for seq := range cfg.sequences {
		r := &sequence[M]{
			answers: answers,
			cov:     &cov,
			cfg:     cfg,
			seq:     seq,
			rng:     rand.New(rand.NewPCG(cfg.seed, uint64(seq))),
			state:   state,
			jobs:    jobs,
			runs:    make([]bool, len(jobs)),
			moved:   make([]bool, len(jobs)),
			unknown: unknown,
			onStack: map[uint64]int{},
			staleAt: map[uint64]int{},
			issued:  map[uint64]bool{},
		}
		for i := range running {
			r.runs[i] = true
		}
		if f := r.play(newModel, fresh); f != nil {
			return f
		}
	}
	if missing, hint := cov.unchecked(); len(missing) > 0 && !cfg.partial {
		return fmt.Errorf("requeuetest: %d sequences of up to %d operations never exercised %s, so the kit checked nothing about %s: %s (or set requeuetest.Options.AllowUnexercised)",
			cfg.sequences, cfg.steps, orList(missing), pronoun(len(missing)), hint)
	}
	return nil
}

// configOf returns the kit's settings from opts (at most one), with the
// defaults for the fields left zero.
func configOf(opts []Options) config {
	var o Options
	if len(opts) == 1 {
		o = opts[0]
	}
	cfg := config{seed: o.Seed, sequences: o.Sequences, steps: o.Steps, strict: o.StrictSavepoints, partial: o.AllowUnexercised}
	if cfg.seed == 0 {
		cfg.seed = defaultSeed
	}
	if cfg.sequences < 1 {
		cfg.sequences = defaultSequences
	}
	if cfg.steps < 1 {
		cfg.steps = defaultSteps
	}
	return cfg
}

// jobList returns the jobs of a fresh model, running ones first, and the
// IDs the kit uses for unknown jobs: "" and one no listed job has.
func jobList(running, pending []string) (jobs, unknown []string, err error) {
	jobs = slices.Concat(running, pending)
	if len(jobs) == 0 {
		return nil, nil, errors.New("requeuetest: no jobs: list the running and the pending jobs of a fresh model")
	}
	seen := make(map[string]bool, len(jobs))
	for _, id := range jobs {
		if id == "" {
			return nil, nil, errors.New("requeuetest: a job ID is empty")
		}
		if seen[id] {
			return nil, nil, fmt.Errorf("requeuetest: job %q is listed twice", id)
		}
		seen[id] = true
	}
	unknown = []string{"", "requeuetest-unknown"}
	for seen[unknown[1]] {
		unknown[1] += "-"
	}
	return jobs, unknown, nil
}

// coverage counts, over all sequences, the outcomes that exercise the
// parts of the contract a fixture could leave unchecked.
type coverage struct {
	evicted, placed, noFit int
	// For models with hints: whether the model has them, and how often
	// MayFit ruled a pending job out and two pending jobs shared a shape.
	bound, shaper           bool
	mayFitFalse, sameShapes int
}

// gap is a part of the contract a run may leave unchecked: what never
// happened, and how to change the fixture so that it does.
type gap struct {
	open       bool
	what, hint string
}

func (c *coverage) gaps() []gap {
	return []gap{
		{c.bound && c.mayFitFalse == 0, "a MayFit that rules a pending job out", "list a pending job the model's MayFit can rule out"},
		{c.shaper && c.sameShapes == 0, "two pending jobs with equal Shape keys", "list two pending jobs of the same shape"},
		{c.evicted == 0, "a successful Evict", "list jobs that run in a fresh model as running"},
		{c.placed == 0, "a successful Place", "list pending jobs that fit, at once or after an eviction"},
		{c.noFit == 0, "a Place that returns false", "list a pending job that does not fit"},
	}
}

// unchecked returns what never happened in the run and, joined, how to
// change the fixture.
func (c *coverage) unchecked() (missing []string, hint string) {
	var hints []string
	for _, g := range c.gaps() {
		if g.open {
			missing, hints = append(missing, g.what), append(hints, g.hint)
		}
	}
	return missing, strings.Join(hints, "; ")
}

// orList joins items as "a", "a or b", "a, b or c".
func orList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

func pronoun(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// safely runs f and turns a panic into an error carrying the stack.
func safely(f func()) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("panic: %v\n%s", v, debug.Stack())
		}
	}()
	f()
	return nil
}

func stack() []byte { return debug.Stack() }

// hintsOf returns a coverage that records which optional hints a fresh
// model offers (an error when newModel panics).
func hintsOf[M requeue.Model](newModel func() M) (coverage, error) {
	var cov coverage
	if err := safely(func() {
		m := newModel()
		_, cov.bound = any(m).(requeue.FitBounder)
		_, cov.shaper = any(m).(requeue.Shaper)
	}); err != nil {
		return cov, fmt.Errorf("requeuetest: %v", err)
	}
	return cov, nil
}
