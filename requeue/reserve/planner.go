package reserve

import (
	"context"
	"log/slog"
	"slices"
	"time"

	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/requeue"
)

// Reservation is a set of nodes held for one pending job, its holder.
type Reservation struct {
	// Holder is the pending job's ID.
	Holder string
	// Nodes are the nodes held, by name in name order: no other job starts
	// on them unless it leaves before Start ([Planner.Backfill]).
	Nodes []string
	// Start is the planned start: when the jobs on Nodes are gone for sure
	// (see the package doc). From then on the jobs still there are offered
	// to the requeue engine, the holder as the contender.
	Start time.Time
	// LostWork is the work, in resource-seconds, the plan expects evictions
	// at Start to throw away: that of the jobs on Nodes past their expected
	// end now, counted to Start from their last checkpoint.
	LostWork float64
	// Taken is when the reservation was taken.
	Taken time.Time
	// Replans counts the plans made after the first (at most
	// Config.MaxReplans).
	Replans int
	// Draining says the re-plans are used up: nothing new starts on Nodes,
	// which empty as their jobs end or are requeued.
	Draining bool
	// Reason labels the reservation's last change: reservation_taken,
	// reservation_moved_earlier, reservation_replanned, reservation_due,
	// reservation_draining; for a released one, why: holder_started,
	// holder_left, holder_not_qualified, holder_does_not_fit, node_gone,
	// no_planned_start.
	Reason eligibility.Reason
}

// Result is what one [Planner.Plan] decided.
type Result struct {
	// Held are the reservations held after the plan, in the order taken.
	Held []Reservation
	// Released are the reservations the plan released, with the reason.
	Released []Reservation
	// Due are the reservations whose planned start the plan reached: the
	// jobs on their nodes were offered to the requeue engine with the
	// holder as the contender, one pass each (Passes, in the same order,
	// when Plan had a model). The embedder evicts the committed victims and
	// starts the holder where the pass placed it.
	Due    []Reservation
	Passes []requeue.EngineResult
	// Wake is the earliest instant after now at which a plan may decide
	// otherwise by time alone (a planned start, a job reaching After, a
	// job on a due reservation's nodes becoming evictable); zero for none.
	Wake time.Time
}

// held is a reservation and what the planner keeps about it.
type held struct {
	Reservation
	passes      int       // the due passes run for it since its last plan
	lastPass    time.Time // the instant of the last one
	victims     []string  // what the last one committed
	terminating bool      // some of them are still running
	unfit       bool      // a pass on its empty nodes did not place it
}

// Planner holds reservations from one cycle to the next. It belongs to one
// goroutine; the zero Planner is not usable: use [New].
type Planner struct {
	cfg  Config
	eng  *requeue.Engine
	held []held
	now  time.Time
	view view // the running jobs of the Plan under way (nil after it)

	nodeOf   map[string]int32
	nodes    []node
	rel      []release
	cnt      []int32
	jobNode  []int32 // per running job, its node (-1: none)
	pending  map[string]int32
	byUnits  map[int64][]cand // startsFor's answers
	ready    []cand
	domOf    map[string]int32
	domains  []string
	domCount []int32
	picked   []int32
	tried    map[shape]struct{}
	seen     map[string]struct{} // scratch: IDs met in this Plan
	// everyJob makes index read the running jobs even for an idle Plan
	// (the tests compare both ways).
	everyJob bool
}

// shape is what a plan depends on in a request.
type shape struct {
	tasks     int
	units     int64
	oneDomain bool
}

// New returns a Planner with the configuration cfg, or every problem of
// cfg at once.
func New(cfg Config) (*Planner, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	ecfg := cfg.Engine
	if ecfg.CanContend == nil {
		ecfg.CanContend = func(*requeue.Victim, *requeue.Contender) bool { return true }
	}
	eng, err := requeue.NewEngine(ecfg)
	if err != nil {
		return nil, err
	}
	return &Planner{cfg: cfg, eng: eng, nodeOf: map[string]int32{}, pending: map[string]int32{}, tried: map[shape]struct{}{},
		byUnits: map[int64][]cand{}, domOf: map[string]int32{}, seen: map[string]struct{}{}}, nil
}

// Plan updates the reservations at now from in (see the package doc):
// releases those whose holder started, left or no longer qualifies,
// re-plans those whose holder did not start at its planned start, takes
// new ones for the pending jobs that qualify, in order, while fewer than
// Config.Max are held, and, with a model, runs the requeue pass of each
// reservation whose planned start has come. The error is a pass's (a
// model that breaks its contract); the reservations are updated anyway.
// O(nodes + jobs·log(jobs per node)) plus O(nodes·log(nodes)) per plan
// made and a pass per due reservation.
func (p *Planner) Plan(now time.Time, in Input, m requeue.Model) (Result, error) {
	p.now = now
	defer func() { p.view.jobs = nil }() // the input is not retained, even when a pass panics
	p.index(now, &in)
	var res Result
	p.review(&in, &res)
	p.takeNew(&in, &res)
	err := p.runDue(&in, m, &res)
	res.Held = make([]Reservation, len(p.held))
	for i := range p.held {
		res.Held[i] = p.held[i].Reservation
		res.Held[i].Nodes = slices.Clone(p.held[i].Nodes)
		p.wake(&res, p.held[i].Start)
	}
	return res, err
}

// wake lowers res.Wake to t when t is after now.
func (p *Planner) wake(res *Result, t time.Time) {
	if t.After(p.now) {
		res.Wake = eligibility.Earliest(res.Wake, t)
	}
}

// observe reports a decision about job to the Observer.
func (p *Planner) observe(job string, d eligibility.Decision) {
	if p.cfg.Observer != nil {
		p.cfg.Observer.Observe(eligibility.Event{Source: source, Job: job, Decision: d})
	}
	if l := p.cfg.Logger; l != nil {
		level := slog.LevelInfo
		if d.Reason == reasonBadRequest {
			level = slog.LevelWarn
		}
		l.Log(context.Background(), level, "reservation", "job", job, "reason", string(d.Reason), "until", d.Until)
	}
}

// at is the instant of offset d from now.
func (p *Planner) at(d time.Duration) time.Time { return clock.AddSaturating(p.now, d) }

// Renew returns a Planner with the configuration cfg that holds a copy of
// p's reservations (their planned starts, re-plans and passes kept), or
// every problem of cfg at once: the way to change the configuration, or
// the filters of the requeue pass, without dropping the reservations. p
// is not changed. The reservations beyond cfg.Max are released at the next
// Plan only if their holders stop qualifying; none is taken while Max or
// more are held.
func (p *Planner) Renew(cfg Config) (*Planner, error) {
	np, err := New(cfg)
	if err != nil {
		return nil, err
	}
	np.held = make([]held, len(p.held))
	for i, h := range p.held {
		h.Nodes = slices.Clone(h.Nodes)
		np.held[i] = h
	}
	return np, nil
}
