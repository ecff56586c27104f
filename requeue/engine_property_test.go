package requeue_test

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
)

// unbounded lifts the default bounds, for comparisons with the oracle
// (which counts neither attempts nor checks, nor failures per victim).
const unbounded = 1 << 40

// naiveRun is the engine's oracle: the rules of Engine.Run written the
// obvious way, with a deep copy of the whole model per attempt, every
// contender tried on its own (no shapes, no fit bound) and no bound but
// MaxVictims. It returns the result (without Attempts and Checks) and the
// final model.
func naiveRun(now time.Time, cfg requeue.EngineConfig, in requeue.EngineInput, c *cluster.Model) (requeue.EngineResult, *cluster.Model) {
	var res requeue.EngineResult
	res.Outcomes = []requeue.Outcome{}
	byJob := map[string]map[string]bool{}
	for _, n := range in.Nominations {
		if byJob[n.Job] == nil {
			byJob[n.Job] = map[string]bool{}
		}
		byJob[n.Job][n.Nominator] = true
	}
	nominators := func(job string) []string { return slices.Sorted(maps.Keys(byJob[job])) }

	// Victim data: each field keeps the most protective value.
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
		victims[v.ID] = w
	}

	// Contenders: the best entry per ID, in contender order; nominated ones
	// are dropped.
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
	for _, cn := range in.Contenders {
		if b, ok := best[cn.ID]; !ok || before(cn, b) {
			best[cn.ID] = cn
		}
	}
	var conts []requeue.Contender
	for _, cn := range best {
		conts = append(conts, cn)
	}
	sort.Slice(conts, func(a, b int) bool { return before(conts[a], conts[b]) })
	kept := conts[:0]
	for _, cn := range conts {
		if byJob[cn.ID] != nil {
			res.ContenderErrors = append(res.ContenderErrors, requeue.ContenderError{cn.ID, requeue.ErrContenderNominated})
			continue
		}
		kept = append(kept, cn)
	}
	conts = kept
	rank := map[string]int{}
	for i, cn := range conts {
		rank[cn.ID] = i
	}

	var known []requeue.Victim
	for _, job := range slices.Sorted(maps.Keys(byJob)) {
		if v, ok := victims[job]; ok {
			known = append(known, v)
		} else {
			res.Outcomes = append(res.Outcomes, requeue.Outcome{Job: job, Nominators: nominators(job), Kind: requeue.OutcomeSkipped, Decision: eligibility.Decision{Reason: requeue.ReasonUnknownVictim}})
		}
	}
	order := cfg.VictimOrder
	if order == nil {
		order = func(now time.Time, a, b *requeue.Victim) int {
			if a.Priority != b.Priority {
				return int(a.Priority) - int(b.Priority)
			}
			oa, ob := time.Duration(0), time.Duration(0)
			if !a.Start.IsZero() {
				oa = now.Sub(a.Start) - a.Expected
			}
			if !b.Start.IsZero() {
				ob = now.Sub(b.Start) - b.Expected
			}
			switch {
			case oa > ob:
				return -1
			case oa < ob:
				return 1
			}
			return 0
		}
	}
	sort.SliceStable(known, func(a, b int) bool { return order(now, &known[a], &known[b]) < 0 })
	canContend := cfg.CanContend
	if canContend == nil {
		canContend = func(v *requeue.Victim, c *requeue.Contender) bool { return c.Priority > v.Priority }
	}

	available := map[string]bool{}
	for _, cn := range conts {
		available[cn.ID] = true
	}
	var placeErrs []requeue.ContenderError
	cur := c.Clone()
	// place tries cn on a copy of m: the copy if it fits, nil if not.
	place := func(m *cluster.Model, cn requeue.Contender) *cluster.Model {
		try := m.Clone()
		ok, err := try.Place(nil, cn.ID)
		if err != nil {
			available[cn.ID] = false
			placeErrs = append(placeErrs, requeue.ContenderError{cn.ID, err})
			return nil
		}
		if !ok {
			return nil
		}
		return try
	}
	// fill: while some available contender fits as things are, place the
	// first one.
	fill := func(after string) {
		for progress := true; progress; {
			progress = false
			for _, cn := range conts {
				if !available[cn.ID] {
					continue
				}
				if next := place(cur, cn); next != nil {
					cur, available[cn.ID] = next, false
					res.FitWithoutEviction = append(res.FitWithoutEviction, requeue.FreeFit{cn.ID, after})
					progress = true
					break
				}
			}
		}
	}

	fill("")
	for k, v := range known {
		out := requeue.Outcome{Job: v.ID, Nominators: nominators(v.ID)}
		if cfg.MaxVictims > 0 && res.Commits >= cfg.MaxVictims {
			for _, rest := range known[k:] {
				res.Outcomes = append(res.Outcomes, requeue.Outcome{Job: rest.ID, Nominators: nominators(rest.ID), Kind: requeue.OutcomeDeferred, Decision: eligibility.Decision{Reason: requeue.ReasonMaxVictims}})
			}
			break
		}
		delay := cfg.DefaultDelay
		if v.HasRequeueDelay {
			delay = v.RequeueDelay
		}
		var elig []requeue.Contender
		for _, cn := range conts {
			if available[cn.ID] && canContend(&v, &cn) {
				elig = append(elig, cn)
			}
		}
		switch {
		case now.Before(v.NotBefore):
			out.Kind, out.Reason, out.Until = requeue.OutcomeSkipped, eligibility.ReasonCooldown, v.NotBefore
		case delay < 0:
			out.Kind, out.Reason = requeue.OutcomeSkipped, requeue.ReasonInvalidDelay
		case len(elig) == 0:
			out.Kind, out.Reason = requeue.OutcomeKept, requeue.ReasonNoContender
		default:
			trial := cur.Clone()
			if err := trial.Evict(nil, v.ID); err != nil {
				out.Kind, out.Reason, out.Err = requeue.OutcomeSkipped, requeue.ReasonEvictError, err
				break
			}
			var got []string
			denied := map[string]bool{}
			denyRank := -1
			var deny eligibility.Reason
			var until time.Time
			for progress := true; progress; {
				progress = false
				for _, cn := range elig {
					if !available[cn.ID] || denied[cn.ID] {
						continue
					}
					next := place(trial, cn)
					if next == nil {
						continue
					}
					allowed := true
					for _, f := range cfg.Filters {
						if vd := f.FilterVictim(now, &v, &cn); !vd.Allowed {
							denied[cn.ID], allowed = true, false
							if denyRank < 0 || rank[cn.ID] < denyRank {
								denyRank, deny = rank[cn.ID], vd.Reason
								if deny == "" {
									deny = requeue.ReasonFiltered
								}
							}
							if !vd.Until.IsZero() && (until.IsZero() || vd.Until.Before(until)) {
								until = vd.Until
							}
							break
						}
					}
					if !allowed {
						continue
					}
					trial, available[cn.ID] = next, false
					got = append(got, cn.ID)
					progress = true
					break
				}
			}
			switch {
			case len(got) > 0:
				cur = trial
				res.Commits++
				nb := eligibility.NotBeforeCeil(now.Add(delay))
				out.Kind, out.Allowed, out.Reason, out.Contenders, out.NotBefore, out.Annotation = requeue.OutcomeCommitted, true, requeue.ReasonCommitted, got, nb, eligibility.FormatNotBefore(nb)
				res.Outcomes = append(res.Outcomes, out)
				fill(v.ID)
				continue
			case denyRank >= 0:
				out.Kind, out.Reason, out.Until = requeue.OutcomeSkipped, deny, until
			default:
				out.Kind, out.Reason = requeue.OutcomeKept, requeue.ReasonNoFit
			}
		}
		res.Outcomes = append(res.Outcomes, out)
	}
	for _, o := range res.Outcomes {
		if o.Kind == requeue.OutcomeSkipped && !o.Until.IsZero() && (res.Wake.IsZero() || o.Until.Before(res.Wake)) {
			res.Wake = o.Until
		}
	}
	sort.SliceStable(placeErrs, func(a, b int) bool { return rank[placeErrs[a].Contender] < rank[placeErrs[b].Contender] })
	res.ContenderErrors = append(res.ContenderErrors, placeErrs...)
	return res, cur
}

// plainModel hides the Cluster's optional interfaces (Shaper, FitBounder):
// the engine must reach the same result without them.
type plainModel struct{ c *cluster.Model }

func (m plainModel) Evict(j *requeue.Journal, id string) error         { return m.c.Evict(j, id) }
func (m plainModel) Place(j *requeue.Journal, id string) (bool, error) { return m.c.Place(j, id) }

// txCluster is a Transactional model over a Cluster: it keeps its own
// journal and savepoints, and ignores the engine's journal.
type txCluster struct {
	c     *cluster.Model
	j     requeue.Journal
	marks []txMark // the valid savepoints, oldest first
	next  requeue.Savepoint
}

type txMark struct {
	sp requeue.Savepoint
	cp requeue.Checkpoint
}

var _ requeue.Transactional = (*txCluster)(nil)

func (m *txCluster) Evict(_ *requeue.Journal, id string) error         { return m.c.Evict(&m.j, id) }
func (m *txCluster) Place(_ *requeue.Journal, id string) (bool, error) { return m.c.Place(&m.j, id) }

func (m *txCluster) Savepoint() requeue.Savepoint {
	m.next++
	m.marks = append(m.marks, txMark{m.next, m.j.Checkpoint()})
	return m.next
}

func (m *txCluster) Rollback(sp requeue.Savepoint) error {
	for i := len(m.marks) - 1; i >= 0; i-- {
		if m.marks[i].sp == sp {
			if err := m.j.Rollback(m.marks[i].cp); err != nil {
				return err
			}
			m.marks = m.marks[:i+1]
			return nil
		}
	}
	return fmt.Errorf("txCluster: unknown savepoint %d", sp)
}

// engineWorld is a random cluster, workload and pass input.
type engineWorld struct {
	cluster   *cluster.Model
	in        requeue.EngineInput
	cfg       requeue.EngineConfig
	protected denyFilter
	prio      map[string]int32
}

func drawWorld(t *rapid.T) engineWorld {
	var nodes []cluster.Node
	for i := range rapid.IntRange(1, 6).Draw(t, "nodes") {
		nodes = append(nodes, cluster.Node{Name: fmt.Sprint("n", i), Capacity: cluster.Resources{
			MilliCPU: rapid.Int64Range(1, 8).Draw(t, "cpu") * 1000,
			GPU:      rapid.Int64Range(0, 4).Draw(t, "gpu"),
		}})
	}
	c, err := cluster.New(nodes)
	if err != nil {
		t.Fatal(err)
	}
	w := engineWorld{cluster: c, protected: denyFilter{}, prio: map[string]int32{}}
	now := t0.Add(10 * time.Hour)
	nJobs := rapid.IntRange(0, 20).Draw(t, "jobs")
	// Few distinct task shapes, so that contenders share shapes.
	task := func() cluster.Resources {
		return cluster.Resources{MilliCPU: rapid.Int64Range(0, 2).Draw(t, "tcpu") * 2000, GPU: rapid.Int64Range(0, 2).Draw(t, "tgpu")}
	}
	for i := range nJobs {
		id := fmt.Sprint("j", i)
		var tasks []cluster.Resources
		for range rapid.IntRange(1, 3).Draw(t, "tasks") {
			tasks = append(tasks, task())
		}
		minTasks := rapid.IntRange(0, len(tasks)).Draw(t, "min")
		if err := c.AddJob(nil, cluster.Job{ID: id, Tasks: tasks, MinTasks: minTasks}); err != nil {
			t.Fatal(err)
		}
		prio := rapid.Int32Range(0, 3).Draw(t, "prio")
		w.prio[id] = prio
		if rapid.Bool().Draw(t, "start") {
			_, _ = c.Place(nil, id) // running if it fits
		}
		if c.Running(id) {
			if rapid.IntRange(0, 3).Draw(t, "nominate") > 0 {
				v := requeue.Victim{ID: id, Priority: prio, Start: t0.Add(time.Duration(rapid.IntRange(0, 9).Draw(t, "startH")) * time.Hour), Expected: time.Hour}
				switch rapid.IntRange(0, 5).Draw(t, "gate") {
				case 0:
					v.NotBefore = now.Add(time.Duration(rapid.IntRange(-2, 2).Draw(t, "nb")) * time.Minute)
				case 1:
					v.RequeueDelay, v.HasRequeueDelay = time.Duration(rapid.IntRange(-1, 30).Draw(t, "delay"))*time.Minute, true
				case 2:
					w.protected[id] = true
				case 3:
					// A second nominator reports the job with other data.
					o := v
					o.Priority = rapid.Int32Range(0, 3).Draw(t, "prio2")
					o.RequeueDelay, o.HasRequeueDelay = time.Duration(rapid.IntRange(0, 30).Draw(t, "delay2"))*time.Minute, true
					o.NotBefore = now.Add(time.Duration(rapid.IntRange(-2, 2).Draw(t, "nb2")) * time.Minute)
					w.in.Victims = append(w.in.Victims, o)
				}
				w.in.Victims = append(w.in.Victims, v)
				for _, name := range rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"expectedruntime", "proportion", "x"}), 1, 3, rapid.ID[string]).Draw(t, "by") {
					w.in.Nominations = append(w.in.Nominations, requeue.VictimNomination{Job: id, Nominator: name})
				}
			}
		} else if rapid.IntRange(0, 4).Draw(t, "contend") > 0 {
			cn := requeue.Contender{ID: id, Priority: prio, Queued: t0.Add(time.Duration(rapid.IntRange(0, 3).Draw(t, "queued")) * time.Minute)}
			w.in.Contenders = append(w.in.Contenders, cn)
			if rapid.IntRange(0, 5).Draw(t, "dupContender") == 0 {
				cn.Priority = rapid.Int32Range(0, 3).Draw(t, "prio3")
				w.in.Contenders = append(w.in.Contenders, cn)
			}
			if rapid.IntRange(0, 4).Draw(t, "pairDeny") == 0 && len(w.in.Victims) > 0 {
				w.protected[w.in.Victims[0].ID+"/"+id] = true
			}
		}
	}
	// Bad data: nominations of unknown or pending jobs, unknown contenders,
	// duplicate nominations, a running job listed as a contender.
	if rapid.Bool().Draw(t, "ghosts") {
		w.in.Nominations = append(w.in.Nominations, requeue.VictimNomination{Job: "ghost", Nominator: "x"})
		w.in.Contenders = append(w.in.Contenders, requeue.Contender{ID: "phantom", Priority: 3})
		if nJobs > 0 {
			id := fmt.Sprint("j", rapid.IntRange(0, nJobs-1).Draw(t, "pendingVictim"))
			w.in.Nominations = append(w.in.Nominations, requeue.VictimNomination{Job: id, Nominator: "x"})
			w.in.Victims = append(w.in.Victims, requeue.Victim{ID: id, Priority: w.prio[id]})
			id = fmt.Sprint("j", rapid.IntRange(0, nJobs-1).Draw(t, "runningContender"))
			w.in.Contenders = append(w.in.Contenders, requeue.Contender{ID: id, Priority: 3})
		}
	}
	if len(w.in.Nominations) > 0 && rapid.Bool().Draw(t, "dup") {
		w.in.Nominations = append(w.in.Nominations, w.in.Nominations[0])
	}
	w.cfg = requeue.EngineConfig{
		DefaultDelay:         time.Duration(rapid.IntRange(0, 20).Draw(t, "default")) * time.Minute,
		MaxVictims:           rapid.IntRange(0, 4).Draw(t, "maxVictims"),
		MaxAttempts:          unbounded,
		MaxChecks:            unbounded,
		MaxAttemptsPerVictim: unbounded,
		Filters:              []requeue.VictimFilter{w.protected},
	}
	if rapid.IntRange(0, 3).Draw(t, "customCanContend") == 0 {
		w.cfg.CanContend = func(v *requeue.Victim, c *requeue.Contender) bool { return c.Priority >= v.Priority }
	}
	return w
}

// sameResult compares two results, ignoring the attempt and check counts
// (which depend on the model's hints) and comparing errors by presence.
var sameResult = []cmp.Option{errPresence, cmpopts.IgnoreFields(requeue.EngineResult{}, "Attempts", "Checks"), cmpopts.EquateEmpty()}

// TestEngineMatchesOracle runs the engine on random worlds, on the Cluster
// (with its shapes and fit bound), on the same Cluster without them, and on
// a Transactional model, and checks each against the naive oracle: same
// outcomes, placements without eviction, contender errors, and final model.
func TestEngineMatchesOracle(t *testing.T) {
	now := t0.Add(10 * time.Hour)
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t)
		want, wantCluster := naiveRun(now, w.cfg, w.in, w.cluster.Clone())
		e, err := requeue.NewEngine(w.cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []struct {
			name  string
			model func(*cluster.Model) requeue.Model
		}{
			{"cluster", func(c *cluster.Model) requeue.Model { return c }},
			{"plain", func(c *cluster.Model) requeue.Model { return plainModel{c} }},
			{"transactional", func(c *cluster.Model) requeue.Model { return &txCluster{c: c} }},
		} {
			c := w.cluster.Clone()
			res, err := e.Run(now, w.in, m.model(c))
			if err != nil {
				t.Fatalf("%s: %v", m.name, err)
			}
			if err := c.Check(); err != nil {
				t.Fatalf("%s: %v", m.name, err)
			}
			if requeue.JournalLen(e) != 0 {
				t.Fatalf("%s: the engine's journal holds %d steps after the pass", m.name, requeue.JournalLen(e))
			}
			if d := cmp.Diff(want, res, sameResult...); d != "" {
				t.Fatalf("%s: engine vs naive oracle (-want +got):\n%s", m.name, d)
			}
			if d := cmp.Diff(wantCluster.Snapshot(), c.Snapshot()); d != "" {
				t.Fatalf("%s: model vs naive oracle (-want +got):\n%s", m.name, d)
			}
		}
	})
}

// replayState rebuilds the pass's successive states from its result alone:
// the placements without eviction, then each commit followed by the
// placements it made room for. visit sees each commit with the state just
// before it.
func replayState(t interface{ Fatalf(string, ...any) }, initial *cluster.Model, res requeue.EngineResult, visit func(before *cluster.Model, o requeue.Outcome)) *cluster.Model {
	cur := initial.Clone()
	free := func(after string) {
		for _, f := range res.FitWithoutEviction {
			if f.After != after {
				continue
			}
			if ok, err := cur.Place(nil, f.Contender); !ok || err != nil {
				t.Fatalf("replay: %q reported as fitting without eviction (after %q) does not fit: %v %v", f.Contender, after, ok, err)
			}
		}
	}
	free("")
	for _, o := range res.Outcomes {
		if o.Kind != requeue.OutcomeCommitted {
			continue
		}
		if visit != nil {
			visit(cur, o)
		}
		if err := cur.Evict(nil, o.Job); err != nil {
			t.Fatalf("replay evict %q: %v", o.Job, err)
		}
		for _, cn := range o.Contenders {
			if ok, err := cur.Place(nil, cn); !ok || err != nil {
				t.Fatalf("replay: contender %q does not fit after evicting %q: %v %v", cn, o.Job, ok, err)
			}
		}
		free(o.Job)
	}
	return cur
}

// fitsIn reports whether job would be placed in a copy of c.
func fitsIn(c *cluster.Model, job string) bool {
	ok, err := c.Clone().Place(nil, job)
	return ok && err == nil
}

// TestEngineMinimality states the pass's invariants over random clusters:
//   - every committed eviction is necessary: no contender placed in a
//     victim's resources fits in the state just before that commit without
//     it (the state includes the room earlier commits left);
//   - a contender reported as fitting without eviction after a commit did
//     not fit before it;
//   - when the pass ends unbounded, no contender left pending fits without
//     an eviction (with a tiny MaxAttemptsPerVictim, some may be left
//     untried, but still no eviction is needless);
//   - the committed evictions and placements, replayed on the initial
//     model, give the final model; each nominated job has one outcome.
func TestEngineMinimality(t *testing.T) {
	now := t0.Add(10 * time.Hour)
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t)
		w.cfg.MaxAttempts, w.cfg.MaxChecks = 0, 0 // the defaults: never reached here
		// The default per-victim bound is never reached here either; tiny
		// ones leave contenders untried, which must not make any eviction
		// needless.
		w.cfg.MaxAttemptsPerVictim = rapid.SampledFrom([]int{0, 1, 2, 3}).Draw(t, "perVictim")
		initial := w.cluster.Clone()
		e, _ := requeue.NewEngine(w.cfg)
		var m requeue.Model = w.cluster
		if rapid.Bool().Draw(t, "plain") {
			m = plainModel{w.cluster}
		}
		res, err := e.Run(now, w.in, m)
		if err != nil {
			t.Fatal(err)
		}
		states := map[string]*cluster.Model{} // the state before each commit
		final := replayState(t, initial, res, func(before *cluster.Model, o requeue.Outcome) {
			for _, cn := range o.Contenders {
				if fitsIn(before, cn) {
					t.Fatalf("victim %q evicted for %q, which fits without the eviction", o.Job, cn)
				}
			}
			states[o.Job] = before.Clone()
		})
		// Placements after a commit did not fit before it (unless a tiny
		// per-victim bound left them untried before it).
		for _, f := range res.FitWithoutEviction {
			if f.After != "" && w.cfg.MaxAttemptsPerVictim == 0 && fitsIn(states[f.After], f.Contender) {
				t.Fatalf("%q reported as fitting after %q's commit fitted before it", f.Contender, f.After)
			}
		}
		if d := cmp.Diff(final.Snapshot(), w.cluster.Snapshot()); d != "" {
			t.Fatalf("model differs from the replay of the result (-replay +model):\n%s", d)
		}
		stopped := w.cfg.MaxAttemptsPerVictim != 0 // a bound may have left contenders untried
		for _, o := range res.Outcomes {
			stopped = stopped || o.Kind == requeue.OutcomeDeferred && o.Reason != requeue.ReasonMaxVictims
		}
		if !stopped {
			errored := map[string]bool{}
			for _, ce := range res.ContenderErrors {
				errored[ce.Contender] = true
			}
			for _, cn := range w.in.Contenders {
				if !errored[cn.ID] && !w.cluster.Running(cn.ID) && fitsIn(w.cluster, cn.ID) {
					t.Fatalf("contender %q fits without eviction at the end of the pass but was not placed", cn.ID)
				}
			}
		}
		nominated := map[string]bool{}
		for _, n := range w.in.Nominations {
			nominated[n.Job] = true
		}
		got := map[string]int{}
		for _, o := range res.Outcomes {
			got[o.Job]++
			if o.Kind == requeue.OutcomeCommitted && w.protected[o.Job] {
				t.Fatalf("protected victim %q evicted", o.Job)
			}
		}
		for job := range nominated {
			if got[job] != 1 {
				t.Fatalf("job %q has %d outcomes", job, got[job])
			}
		}
		if len(got) != len(nominated) {
			t.Fatalf("%d outcomes for %d nominated jobs", len(got), len(nominated))
		}
	})
}

// TestEngineOrderIndependence: the result and the final model do not depend
// on the order of the nominations, the victims or the contenders, even with
// duplicate entries carrying different data, nor on the time zones their
// instants are written in.
func TestEngineOrderIndependence(t *testing.T) {
	now := t0.Add(10 * time.Hour)
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t)
		w.cfg.MaxAttempts = rapid.IntRange(0, 30).Draw(t, "maxAttempts") // bounds too
		w.cfg.MaxChecks = rapid.IntRange(0, 60).Draw(t, "maxChecks")
		w.cfg.MaxAttemptsPerVictim = rapid.IntRange(0, 4).Draw(t, "perVictim")
		e, _ := requeue.NewEngine(w.cfg)
		c1 := w.cluster.Clone()
		res1, err1 := e.Run(now, w.in, c1)

		in2 := requeue.EngineInput{
			Nominations: rapid.Permutation(w.in.Nominations).Draw(t, "noms"),
			Victims:     rapid.Permutation(w.in.Victims).Draw(t, "victims"),
			Contenders:  rapid.Permutation(w.in.Contenders).Draw(t, "contenders"),
		}
		// The same instants, written in other time zones.
		zones := []*time.Location{time.UTC, time.FixedZone("E", 3600), time.FixedZone("W", -7200)}
		zone := func(tm time.Time) time.Time {
			if tm.IsZero() {
				return tm
			}
			return tm.In(rapid.SampledFrom(zones).Draw(t, "zone"))
		}
		for i := range in2.Victims {
			v := &in2.Victims[i]
			v.Start, v.NotBefore = zone(v.Start), zone(v.NotBefore)
		}
		for i := range in2.Contenders {
			in2.Contenders[i].Queued = zone(in2.Contenders[i].Queued)
		}
		c2 := w.cluster.Clone()
		res2, err2 := e.Run(now, in2, c2)
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("errors %v, %v", err1, err2)
		}
		if d := cmp.Diff(res1, res2, errPresence, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("result depends on input order (-first +permuted):\n%s", d)
		}
		if d := cmp.Diff(c1.Snapshot(), c2.Snapshot()); d != "" {
			t.Fatalf("model depends on input order (-first +permuted):\n%s", d)
		}
	})
}

// TestEngineBounds: a bounded pass does what the unbounded pass does until
// the bound is reached, then defers the rest; its counts respect the
// bounds. The bounds hold with the Cluster's hints and without them.
func TestEngineBounds(t *testing.T) {
	now := t0.Add(10 * time.Hour)
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t)
		plain := rapid.Bool().Draw(t, "plain")
		model := func(c *cluster.Model) requeue.Model {
			if plain {
				return plainModel{c}
			}
			return c
		}
		full, _ := requeue.NewEngine(w.cfg)
		want, err := full.Run(now, w.in, model(w.cluster.Clone()))
		if err != nil {
			t.Fatal(err)
		}
		cfg := w.cfg
		cfg.MaxAttempts = rapid.IntRange(1, 20).Draw(t, "maxAttempts")
		cfg.MaxChecks = rapid.IntRange(1, 60).Draw(t, "maxChecks")
		e, _ := requeue.NewEngine(cfg)
		got, err := e.Run(now, w.in, model(w.cluster.Clone()))
		if err != nil {
			t.Fatal(err)
		}
		if got.Attempts > cfg.MaxAttempts || got.Checks > cfg.MaxChecks {
			t.Fatalf("attempts %d (max %d), checks %d (max %d)", got.Attempts, cfg.MaxAttempts, got.Checks, cfg.MaxChecks)
		}
		if len(got.Outcomes) != len(want.Outcomes) {
			t.Fatalf("%d outcomes, want %d", len(got.Outcomes), len(want.Outcomes))
		}
		// Identical outcomes up to the first difference; there, a commit
		// with a prefix of the contenders, or a deferral; after it, only
		// deferrals by a bound.
		i := 0
		for i < len(got.Outcomes) && cmp.Equal(want.Outcomes[i], got.Outcomes[i], errPresence) {
			i++
		}
		if i < len(got.Outcomes) {
			o, wo := got.Outcomes[i], want.Outcomes[i]
			if o.Kind == requeue.OutcomeCommitted {
				if wo.Kind != requeue.OutcomeCommitted || !slices.Equal(o.Contenders, wo.Contenders[:min(len(o.Contenders), len(wo.Contenders))]) {
					t.Fatalf("outcome %d: got %+v, unbounded %+v", i, o, wo)
				}
				i++
			}
			for _, o := range got.Outcomes[i:] {
				if o.Kind != requeue.OutcomeDeferred || (o.Reason != requeue.ReasonMaxAttempts && o.Reason != requeue.ReasonMaxChecks && o.Reason != requeue.ReasonMaxVictims) {
					t.Fatalf("after the bound: %+v", o)
				}
			}
		}
		// Placements without eviction: a prefix of the unbounded ones.
		if n := len(got.FitWithoutEviction); n > len(want.FitWithoutEviction) || !slices.Equal(got.FitWithoutEviction, want.FitWithoutEviction[:n]) {
			t.Fatalf("free placements %v, unbounded %v", got.FitWithoutEviction, want.FitWithoutEviction)
		}
	})
}

// TestEngineReuse: an engine that ran other passes gives the result of a
// fresh engine (no scratch state leaks from one pass to the next).
func TestEngineReuse(t *testing.T) {
	now := t0.Add(10 * time.Hour)
	e, _ := requeue.NewEngine(requeue.EngineConfig{MaxChecks: unbounded, MaxAttempts: unbounded, Filters: []requeue.VictimFilter{denyFilter{}}})
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t)
		w.cfg.Filters = []requeue.VictimFilter{w.protected}
		*requeue.Config(e) = w.cfg
		got, err1 := e.Run(now, w.in, w.cluster.Clone())
		fresh, _ := requeue.NewEngine(w.cfg)
		want, err2 := fresh.Run(now, w.in, w.cluster.Clone())
		if !errors.Is(err1, err2) {
			t.Fatalf("errors %v, %v", err1, err2)
		}
		if d := cmp.Diff(want, got, errPresence, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("reused engine (-fresh +reused):\n%s", d)
		}
	})
}
