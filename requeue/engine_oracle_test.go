package requeue_test

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/internal/notbefore"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
)

// unbounded lifts the default bounds, for comparisons with the oracle
// (which counts neither attempts nor checks).
const unbounded = 1 << 40

// naiveVictim is the oracle's view of one victim.
type naiveVictim struct {
	v          requeue.Victim
	nominators []string
	cost       float64
	overrun    time.Duration
	open       bool
	examined   bool
	cheaper    bool
	fails      int
	checks     int
	denyRank   int
	deny       eligibility.Reason
	denyUntil  time.Time
	notBefore  time.Time
	filtered   map[string]bool // contender -> allowed, asked once each
}

// naiveGroup is the oracle's view of one domain.
type naiveGroup struct {
	key     string
	solo    bool
	members []int // victim ranks
	cost    float64
}

// oracle is the engine's oracle: the rules of Engine.Run written the
// obvious way, with a deep copy of the whole model for every trial, every
// contender tried on its own (no shapes, no fit bound, no memory of failed
// searches), and no bound but MaxVictims and the set search's own bounds
// (MaxSetGroups, MaxSetSize, SetCandidates, the per-victim shares), which
// decide what a search looks at. domains, when not nil, is the locality
// hint (the engine's Localizer); nil means one group.
type oracle struct {
	now      time.Time
	cfg      requeue.EngineConfig
	domains  func(c *cluster.Model, job string) []string
	never    func(job string) bool // the capacity bound's "cannot ever fit"; nil without it
	res      requeue.EngineResult
	cur      *cluster.Model
	vs       []*naiveVictim
	groups   []naiveGroup
	order    []int // groups, cheapest first
	conts    []requeue.Contender
	gone     map[string]bool
	perr     []requeue.ContenderError
	rank     map[string]int
	stop     eligibility.Reason
	bounded  bool
	after    string
	G, S, K  int
	perV     int
	perCheck int
	pend     []int // the victims of the search's failed accumulations
	setFit   bool  // some accumulation of the search let the contender fit
}

// naiveRun runs the oracle: it returns the result (without Attempts and
// Checks) and the final model.
func naiveRun(now time.Time, cfg requeue.EngineConfig, in requeue.EngineInput, c *cluster.Model, domains func(*cluster.Model, string) []string, never func(string) bool) (requeue.EngineResult, *cluster.Model) {
	o := &oracle{now: now, cfg: cfg, domains: domains, never: never, cur: c.Clone(), gone: map[string]bool{}, rank: map[string]int{},
		G: cmp.Or(cfg.MaxSetGroups, engineDefaults.MaxSetGroups), S: cmp.Or(cfg.MaxSetSize, engineDefaults.MaxSetSize),
		K: cmp.Or(cfg.SetCandidates, engineDefaults.SetCandidates), perV: cmp.Or(cfg.MaxAttemptsPerVictim, engineDefaults.MaxAttemptsPerVictim),
		perCheck: cmp.Or(cfg.MaxChecksPerVictim, engineDefaults.MaxChecksPerVictim)}
	o.res.Outcomes = []requeue.Outcome{}
	o.input(in)
	o.fill("")
	o.buildGroups()
	for _, cn := range o.conts {
		if o.cfg.MaxVictims > 0 && o.res.Commits >= o.cfg.MaxVictims {
			o.stop = requeue.ReasonMaxVictims
		}
		if o.stop != "" {
			break
		}
		if !o.gone[cn.ID] {
			o.serve(cn)
		}
	}
	o.finish()
	sort.SliceStable(o.perr, func(a, b int) bool { return o.rank[o.perr[a].Contender] < o.rank[o.perr[b].Contender] })
	o.res.ContenderErrors = append(o.res.ContenderErrors, o.perr...)
	for _, out := range o.res.Outcomes {
		if out.Kind == requeue.OutcomeSkipped && !out.Until.IsZero() && (o.res.Wake.IsZero() || out.Until.Before(o.res.Wake)) {
			o.res.Wake = out.Until
		}
	}
	return o.res, o.cur
}

// input merges the nominations and victim data, orders the contenders and
// the victims, and decides the victims skipped at the start.
func (o *oracle) input(in requeue.EngineInput) {
	byJob := map[string]map[string]bool{}
	for _, n := range in.Nominations {
		if byJob[n.Job] == nil {
			byJob[n.Job] = map[string]bool{}
		}
		byJob[n.Job][n.Nominator] = true
	}
	nominators := func(job string) []string { return slices.Sorted(maps.Keys(byJob[job])) }
	victims := map[string]requeue.Victim{}
	for _, v := range in.Victims {
		w, ok := victims[v.ID]
		if !ok {
			victims[v.ID] = v
			continue
		}
		w.Priority = max(w.Priority, v.Priority)
		w.Queue = max(w.Queue, v.Queue)
		if w.Start.IsZero() || (!v.Start.IsZero() && v.Start.After(w.Start)) {
			w.Start = v.Start
		}
		w.Expected = max(w.Expected, v.Expected)
		if v.HasRequeueDelay && (!w.HasRequeueDelay || v.RequeueDelay > w.RequeueDelay) {
			w.RequeueDelay, w.HasRequeueDelay = v.RequeueDelay, true
		}
		if w.NotBefore.IsZero() || (!v.NotBefore.IsZero() && v.NotBefore.After(w.NotBefore)) {
			w.NotBefore = v.NotBefore
		}
		if w.LastCheckpoint.IsZero() || (!v.LastCheckpoint.IsZero() && v.LastCheckpoint.Before(w.LastCheckpoint)) {
			w.LastCheckpoint = v.LastCheckpoint
		}
		if v.Resources > w.Resources || math.IsNaN(w.Resources) {
			w.Resources = v.Resources
		}
		victims[v.ID] = w
	}
	o.contenders(in.Contenders, byJob)
	o.victims(victims, byJob, nominators)
}

// victims orders the victims with data and decides those skipped at the
// start.
func (o *oracle) victims(victims map[string]requeue.Victim, byJob map[string]map[string]bool, nominators func(string) []string) {

	var known []*naiveVictim
	for _, job := range slices.Sorted(maps.Keys(byJob)) {
		v, ok := victims[job]
		switch {
		case job == "":
			o.res.Outcomes = append(o.res.Outcomes, requeue.Outcome{Job: job, Nominators: nominators(job), Kind: requeue.OutcomeSkipped, Decision: eligibility.Decision{Reason: requeue.ReasonInvalidID}})
		case !ok:
			o.res.Outcomes = append(o.res.Outcomes, requeue.Outcome{Job: job, Nominators: nominators(job), Kind: requeue.OutcomeSkipped, Decision: eligibility.Decision{Reason: requeue.ReasonUnknownVictim}})
		default:
			v.Start, v.NotBefore, v.LastCheckpoint = v.Start.UTC(), v.NotBefore.UTC(), v.LastCheckpoint.UTC()
			cost := requeue.DefaultVictimCost
			if o.cfg.VictimCost != nil {
				cost = o.cfg.VictimCost
			}
			nv := &naiveVictim{v: v, nominators: nominators(job), cost: cost(o.now, &v), overrun: v.Overrun(o.now), open: true, denyRank: -1, filtered: map[string]bool{}}
			if math.IsNaN(nv.cost) {
				nv.cost = math.Inf(1)
			}
			known = append(known, nv)
		}
	}
	sort.SliceStable(known, func(a, b int) bool {
		x, y := known[a], known[b]
		if o.cfg.VictimOrder != nil {
			return cmp.Or(o.cfg.VictimOrder(o.now, &x.v, &y.v), strings.Compare(x.v.ID, y.v.ID)) < 0
		}
		return cmp.Or(cmp.Compare(x.cost, y.cost), cmp.Compare(x.v.Priority, y.v.Priority), cmp.Compare(y.overrun, x.overrun), strings.Compare(x.v.ID, y.v.ID)) < 0
	})
	o.vs = known
	for _, nv := range known {
		v := &nv.v
		delay := o.cfg.DefaultDelay
		if v.HasRequeueDelay {
			delay = v.RequeueDelay
		}
		nb := notbefore.Ceil(o.now.Add(delay))
		out := requeue.Outcome{Job: v.ID, Nominators: nv.nominators, Kind: requeue.OutcomeSkipped}
		switch {
		case o.now.Before(v.NotBefore):
			out.Reason, out.Until = eligibility.ReasonCooldown, v.NotBefore
		case delay < 0 || nb.Year() > 9999 || nb.Year() < 0:
			out.Reason = requeue.ReasonInvalidDelay
		default:
			nv.notBefore = nb
			continue
		}
		nv.open = false
		o.res.Outcomes = append(o.res.Outcomes, out)
	}
}

// contenders keeps the best entry per ID, in contender order, and drops
// the nominated ones and those without an ID.
func (o *oracle) contenders(in []requeue.Contender, byJob map[string]map[string]bool) {
	before := func(a, b requeue.Contender) bool {
		if a.Priority != b.Priority {
			return a.Priority > b.Priority
		}
		if !a.Queued.Equal(b.Queued) {
			return a.Queued.Before(b.Queued)
		}
		if a.ID != b.ID {
			return a.ID < b.ID
		}
		return a.Queue < b.Queue
	}
	best := map[string]requeue.Contender{}
	for _, cn := range in {
		cn.Queued = cn.Queued.UTC()
		if b, ok := best[cn.ID]; !ok || before(cn, b) {
			best[cn.ID] = cn
		}
	}
	var conts []requeue.Contender
	for _, cn := range best {
		conts = append(conts, cn)
	}
	sort.Slice(conts, func(a, b int) bool { return before(conts[a], conts[b]) })
	for _, cn := range conts {
		switch {
		case cn.ID == "":
			o.res.ContenderErrors = append(o.res.ContenderErrors, requeue.ContenderError{Err: requeue.ErrEmptyContenderID})
		case byJob[cn.ID] != nil:
			o.res.ContenderErrors = append(o.res.ContenderErrors, requeue.ContenderError{Contender: cn.ID, Err: requeue.ErrContenderNominated})
		default:
			o.rank[cn.ID] = len(o.conts)
			o.conts = append(o.conts, cn)
		}
	}
}

// place tries cn on a copy of m: the copy if it fits, nil if not (or if
// Place failed: the contender is then gone for the pass).
func (o *oracle) place(m *cluster.Model, cn requeue.Contender) *cluster.Model {
	try := m.Clone()
	ok, err := try.Place(nil, cn.ID)
	if err != nil {
		o.gone[cn.ID] = true
		o.perr = append(o.perr, requeue.ContenderError{Contender: cn.ID, Err: err})
		return nil
	}
	if !ok {
		return nil
	}
	return try
}

// fill places, while one fits as things are, the first available
// contender in order.
func (o *oracle) fill(after string) {
	for progress := true; progress; {
		progress = false
		for _, cn := range o.conts {
			if o.gone[cn.ID] {
				continue
			}
			if next := o.place(o.cur, cn); next != nil {
				o.cur, o.gone[cn.ID] = next, true
				o.res.FitWithoutEviction = append(o.res.FitWithoutEviction, requeue.FreeFit{Contender: cn.ID, After: after})
				progress = true
				break
			}
		}
	}
}

// buildGroups groups the open victims by domain, cheapest domain first,
// then by their first victim in victim order.
func (o *oracle) buildGroups() {
	type pair struct {
		key  string
		solo bool
		k    int
	}
	var pairs []pair
	for k, nv := range o.vs {
		if !nv.open {
			continue
		}
		if o.domains == nil {
			pairs = append(pairs, pair{k: k})
			continue
		}
		ds := o.domains(o.cur, nv.v.ID)
		if len(ds) == 0 {
			pairs = append(pairs, pair{key: nv.v.ID, solo: true, k: k})
		}
		for _, d := range ds {
			pairs = append(pairs, pair{key: d, k: k})
		}
	}
	slices.SortFunc(pairs, func(a, b pair) int {
		if a.solo != b.solo {
			if a.solo {
				return 1
			}
			return -1
		}
		return cmp.Or(strings.Compare(a.key, b.key), cmp.Compare(a.k, b.k))
	})
	pairs = slices.Compact(pairs)
	for _, p := range pairs {
		if n := len(o.groups); n == 0 || o.groups[n-1].key != p.key || o.groups[n-1].solo != p.solo {
			o.groups = append(o.groups, naiveGroup{key: p.key, solo: p.solo})
		}
		g := &o.groups[len(o.groups)-1]
		g.members = append(g.members, p.k)
		g.cost += o.vs[p.k].cost
	}
	for g := range o.groups {
		o.order = append(o.order, g)
	}
	slices.SortStableFunc(o.order, func(a, b int) int {
		ga, gb := &o.groups[a], &o.groups[b]
		return cmp.Or(cmp.Compare(ga.cost, gb.cost), cmp.Compare(ga.members[0], gb.members[0]))
	})
}

func (o *oracle) live(g int) bool {
	for _, k := range o.groups[g].members {
		if o.vs[k].open {
			return true
		}
	}
	return false
}

func (o *oracle) canContend(v *requeue.Victim, cn *requeue.Contender) bool {
	if o.cfg.CanContend == nil {
		return cn.Priority > v.Priority
	}
	return o.cfg.CanContend(v, cn)
}

// allowed asks the filters about victim k and contender cn (once).
func (o *oracle) allowed(k int, cn requeue.Contender) bool {
	nv := o.vs[k]
	if ok, asked := nv.filtered[cn.ID]; asked {
		return ok
	}
	for _, f := range o.cfg.Filters {
		if d := f.FilterVictim(o.now, &nv.v, &cn); !d.Allowed {
			nv.filtered[cn.ID] = false
			if r := o.rank[cn.ID]; nv.denyRank < 0 || r < nv.denyRank {
				nv.denyRank, nv.deny = r, cmp.Or(d.Reason, requeue.ReasonFiltered)
			}
			if !d.Until.IsZero() && (nv.denyUntil.IsZero() || d.Until.Before(nv.denyUntil)) {
				nv.denyUntil = d.Until.UTC()
			}
			return false
		}
	}
	nv.filtered[cn.ID] = true
	return true
}

func (o *oracle) denied(k int, cn requeue.Contender) bool {
	ok, asked := o.vs[k].filtered[cn.ID]
	return asked && !ok
}

// giveUp decides victim k by a per-victim bound.
func (o *oracle) giveUp(k int, reason eligibility.Reason) {
	nv := o.vs[k]
	out := requeue.Outcome{Job: nv.v.ID, Nominators: nv.nominators, Kind: requeue.OutcomeKept, Decision: eligibility.Decision{Reason: reason}}
	if nv.denyRank >= 0 {
		out.Kind, out.Reason, out.Until = requeue.OutcomeSkipped, nv.deny, nv.denyUntil
	}
	nv.open = false
	o.res.Outcomes = append(o.res.Outcomes, out)
}
