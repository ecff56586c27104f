package requeue_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
	"github.com/tenurepolicy/tenure/requeue/internal/clustercheck"
)

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
	next  uint64
}

type txMark struct {
	sp uint64
	cp requeue.Checkpoint
}

var _ requeue.Transactional = (*txCluster)(nil)

func (m *txCluster) Evict(_ *requeue.Journal, id string) error         { return m.c.Evict(&m.j, id) }
func (m *txCluster) Place(_ *requeue.Journal, id string) (bool, error) { return m.c.Place(&m.j, id) }

func (m *txCluster) Savepoint() uint64 {
	m.next++
	m.marks = append(m.marks, txMark{m.next, m.j.Checkpoint()})
	return m.next
}

func (m *txCluster) Rollback(sp uint64) error {
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
		if running(c, id) {
			if rapid.IntRange(0, 3).Draw(t, "nominate") > 0 {
				v := requeue.Victim{ID: id, Priority: prio, Start: t0.Add(time.Duration(rapid.IntRange(0, 9).Draw(t, "startH")) * time.Hour), Expected: time.Hour,
					Resources: float64(rapid.IntRange(0, 4).Draw(t, "resources"))}
				if rapid.Bool().Draw(t, "checkpointed") {
					v.LastCheckpoint = t0.Add(time.Duration(rapid.IntRange(0, 10).Draw(t, "checkpointH")) * time.Hour)
				}
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
		DefaultDelay: time.Duration(rapid.IntRange(0, 20).Draw(t, "default")) * time.Minute,
		MaxVictims:   rapid.IntRange(0, 4).Draw(t, "maxVictims"),
		MaxAttempts:  unbounded,
		MaxChecks:    unbounded,
		Filters:      []requeue.VictimFilter{w.protected},
	}
	if rapid.IntRange(0, 3).Draw(t, "customCanContend") == 0 {
		w.cfg.CanContend = func(v *requeue.Victim, c *requeue.Contender) bool { return c.Priority >= v.Priority }
	}
	if rapid.IntRange(0, 3).Draw(t, "customVictimOrder") == 0 {
		// The opposite of the default: highest priority first (ties by ID).
		w.cfg.VictimOrder = func(_ time.Time, a, b *requeue.Victim) int { return int(b.Priority) - int(a.Priority) }
	}
	return w
}

// sameResult compares two results, ignoring the Place calls (the one count
// the hints change) and comparing errors by presence.
var sameResult = []cmp.Option{errPresence, cmpopts.IgnoreFields(requeue.EngineResult{}, "Places"), cmpopts.EquateEmpty()}

// sameDecisions compares a result with one written by hand: the decisions
// (outcomes, placements, problems, commits and sets), not what the pass
// cost or how its contenders ended.
var sameDecisions = []cmp.Option{errPresence, cmpopts.EquateEmpty(),
	cmpopts.IgnoreFields(requeue.EngineResult{}, "Places", "Attempts", "Checks", "NoSet", "OverShare", "OverCap", "Untried", "Stop")}

// hintViews are the ways the hint tests see one Cluster: every hint, each
// hint alone, and a Transactional model without hints; the plain model is
// the reference.
var hintViews = []struct {
	name  string
	model func(*cluster.Model) requeue.Model
}{
	{"cluster", func(c *cluster.Model) requeue.Model { return c }},
	{"shapes", func(c *cluster.Model) requeue.Model { return shapesOnly{c} }},
	{"fit-bound", func(c *cluster.Model) requeue.Model { return boundOnly{c} }},
	{"transactional", func(c *cluster.Model) requeue.Model { return &txCluster{c: c} }},
}

// TestEngineHintsChangeNoAnswer runs the engine on random worlds, bounds
// included (small MaxAttempts, MaxChecks and MaxFillFailures), with the
// Cluster's hints (shapes, fit bound), with each alone, and on a
// Transactional model, and compares each run with the run on the plain
// model (Evict and Place only): the same outcomes (kind, reason, set),
// placements without eviction, contender problems, counts (Places aside)
// and final model. Hints change what a pass costs, never what it decides.
func TestEngineHintsChangeNoAnswer(t *testing.T) {
	now := t0.Add(10 * time.Hour)
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t)
		if rapid.Bool().Draw(t, "bounded") {
			w.cfg.MaxAttempts = rapid.IntRange(1, 40).Draw(t, "maxAttempts")
			w.cfg.MaxChecks = rapid.IntRange(1, 120).Draw(t, "maxChecks")
			w.cfg.MaxFillFailures = rapid.IntRange(0, 3).Draw(t, "fillFailures")
		}
		e, err := requeue.NewEngine(w.cfg)
		if err != nil {
			t.Fatal(err)
		}
		plainCluster := w.cluster.Clone()
		want, err := e.Run(now, w.in, plainModel{plainCluster})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range hintViews {
			c := w.cluster.Clone()
			res, err := e.Run(now, w.in, m.model(c))
			if err != nil {
				t.Fatalf("%s: %v", m.name, err)
			}
			if err := clustercheck.Check(c); err != nil {
				t.Fatalf("%s: %v", m.name, err)
			}
			if requeue.JournalLen(e) != 0 {
				t.Fatalf("%s: the engine's journal holds %d steps after the pass", m.name, requeue.JournalLen(e))
			}
			if d := cmp.Diff(want, res, sameResult...); d != "" {
				t.Fatalf("%s: hinted vs plain (-plain +hinted):\n%s", m.name, d)
			}
			if res.Places > res.Attempts {
				t.Fatalf("%s: %d Place calls for %d fit tests", m.name, res.Places, res.Attempts)
			}
			if d := cmp.Diff(plainCluster.Snapshot(), c.Snapshot()); d != "" {
				t.Fatalf("%s: model vs plain (-plain +hinted):\n%s", m.name, d)
			}
		}
	})
}

// replayState rebuilds the pass's successive states from its result alone:
// the placements without eviction, then each committed set (its victims
// evicted, its contender placed) followed by the placements it made room
// for. visit sees each set, its contender and the state just before it.
func replayState(t interface{ Fatalf(string, ...any) }, initial *cluster.Model, res requeue.EngineResult, visit func(before *cluster.Model, set []string, contender string)) *cluster.Model {
	cur := initial.Clone()
	free := func(after string) {
		for _, f := range res.FitWithoutEviction {
			if f.Other != after {
				continue
			}
			if ok, err := cur.Place(nil, f.Job); !ok || err != nil {
				t.Fatalf("replay: %q reported as fitting without eviction (after %q) does not fit: %v %v", f.Job, after, ok, err)
			}
		}
	}
	free("")
	for i := 0; i < len(res.Outcomes); i++ {
		o := res.Outcomes[i]
		if o.Kind != requeue.OutcomeCommitted {
			continue
		}
		// A set's outcomes are consecutive: the victim and its With.
		set := append([]string{o.Job}, o.With...)
		for j := 1; j < len(set); j++ {
			if n := res.Outcomes[i+j]; n.Kind != requeue.OutcomeCommitted || n.Contenders[0] != o.Contenders[0] || !slices.Contains(set, n.Job) {
				t.Fatalf("replay: set %v of %q not reported together: %+v", set, o.Contenders[0], n)
			}
		}
		if len(o.Contenders) != 1 {
			t.Fatalf("replay: %q committed for %v", o.Job, o.Contenders)
		}
		if visit != nil {
			visit(cur, set, o.Contenders[0])
		}
		for _, v := range set {
			if err := cur.Evict(nil, v); err != nil {
				t.Fatalf("replay evict %q: %v", v, err)
			}
		}
		if ok, err := cur.Place(nil, o.Contenders[0]); !ok || err != nil {
			t.Fatalf("replay: contender %q does not fit after evicting %v: %v %v", o.Contenders[0], set, ok, err)
		}
		free(o.Job)
		i += len(set) - 1
	}
	return cur
}

// checkIrreducible fails unless every victim of set was needed for cn in
// the state before its commit: cn fits neither without eviction nor with
// any one victim of the set kept.
func checkIrreducible(t interface{ Fatalf(string, ...any) }, before *cluster.Model, set []string, cn string) {
	if fitsIn(before, cn) {
		t.Fatalf("set %v evicted for %q, which fits without eviction", set, cn)
	}
	for i := range set {
		if len(set) > 1 && fitsWithout(before, set, i, cn) {
			t.Fatalf("set %v evicted for %q, which fits with %q kept", set, cn, set[i])
		}
	}
}

// fitsWithout reports whether job fits in c with every victim of set but
// the i-th evicted (i < 0: all of them).
func fitsWithout(c *cluster.Model, set []string, i int, job string) bool {
	m := c.Clone()
	for j, v := range set {
		if j != i {
			if err := m.Evict(nil, v); err != nil {
				return false
			}
		}
	}
	return fitsIn(m, job)
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
//   - when the pass ends unbounded, no contender left pending fits without
//     an eviction (with a tiny MaxFillFailures, some may be left
//     untried, but still no eviction is needless);
//   - the committed evictions and placements, replayed on the initial
//     model, give the final model; each nominated job has one outcome.
func TestEngineMinimality(t *testing.T) {
	now := t0.Add(10 * time.Hour)
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t)
		w.cfg.MaxAttempts, w.cfg.MaxChecks = 0, 0 // the defaults: never reached here
		// The default fill bound is never reached here either; tiny ones
		// leave contenders untried, which must not make any eviction
		// needless.
		w.cfg.MaxFillFailures = rapid.SampledFrom([]int{0, 1, 2, 3}).Draw(t, "fillFailures")
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
		final := replayState(t, initial, res, func(before *cluster.Model, set []string, cn string) {
			checkIrreducible(t, before, set, cn)
		})
		if d := cmp.Diff(final.Snapshot(), w.cluster.Snapshot()); d != "" {
			t.Fatalf("model differs from the replay of the result (-replay +model):\n%s", d)
		}
		stopped := w.cfg.MaxFillFailures != 0 // a bound may have left contenders untried
		for _, o := range res.Outcomes {
			stopped = stopped || o.Kind == requeue.OutcomeDeferred && o.Reason != eligibility.Reason("max_victims")
		}
		if !stopped {
			errored := map[string]bool{}
			for _, ce := range res.ContenderProblems {
				errored[ce.Contender] = true
			}
			for _, cn := range w.in.Contenders {
				if !errored[cn.ID] && !running(w.cluster, cn.ID) && fitsIn(w.cluster, cn.ID) {
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
		w.cfg.MaxFillFailures = rapid.IntRange(0, 4).Draw(t, "fillFailures")
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

// TestEngineBounds: a pass bounded by MaxAttempts does what the unbounded
// pass does until the bound is reached, then defers the rest; its counts
// respect the bounds, MaxChecks's too (whose shares change what searches
// look at, so that only the counts and one outcome per nomination are
// asked of it). The bounds hold with the Cluster's hints and without them.
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
		cfg.MaxChecks = rapid.IntRange(1, 60).Draw(t, "maxChecks")
		e, _ := requeue.NewEngine(cfg)
		got, err := e.Run(now, w.in, model(w.cluster.Clone()))
		if err != nil {
			t.Fatal(err)
		}
		if got.Checks > cfg.MaxChecks || len(got.Outcomes) != len(want.Outcomes) {
			t.Fatalf("checks %d (max %d), %d outcomes (unbounded %d)", got.Checks, cfg.MaxChecks, len(got.Outcomes), len(want.Outcomes))
		}
		cfg = w.cfg
		cfg.MaxAttempts = rapid.IntRange(1, 20).Draw(t, "maxAttempts")
		e, _ = requeue.NewEngine(cfg)
		got, err = e.Run(now, w.in, model(w.cluster.Clone()))
		if err != nil {
			t.Fatal(err)
		}
		if got.Attempts > cfg.MaxAttempts {
			t.Fatalf("attempts %d (max %d)", got.Attempts, cfg.MaxAttempts)
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
				if o.Kind != requeue.OutcomeDeferred || (o.Reason != eligibility.Reason("max_attempts") && o.Reason != eligibility.Reason("max_checks") && o.Reason != eligibility.Reason("max_victims")) {
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

// unbounded lifts the default bounds.
const unbounded = 1 << 40

// TestContendClassChangesNoAnswer: ContendClass, a hint for a custom
// CanContend, changes what a pass costs and no decision, over random
// worlds whose CanContend depends on the contender's queue and priority.
// (A key that ignores the queue, a wrong hint, fails it.)
func TestContendClassChangesNoAnswer(t *testing.T) {
	now := t0.Add(10 * time.Hour)
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t)
		for i := range w.in.Contenders {
			w.in.Contenders[i].Queue = queuetree.ID(rapid.IntRange(1, 2).Draw(t, "contenderQueue"))
		}
		for i := range w.in.Victims {
			w.in.Victims[i].Queue = queuetree.ID(rapid.IntRange(1, 2).Draw(t, "victimQueue"))
		}
		w.cfg.CanContend = func(v *requeue.Victim, c *requeue.Contender) bool {
			return c.Priority > v.Priority || c.Priority == v.Priority && c.Queue == v.Queue
		}
		plain, err := requeue.NewEngine(w.cfg)
		if err != nil {
			t.Fatal(err)
		}
		w.cfg.ContendClass = func(c *requeue.Contender) int64 { return int64(c.Queue)<<32 | int64(uint32(c.Priority)) }
		hinted, err := requeue.NewEngine(w.cfg)
		if err != nil {
			t.Fatal(err)
		}
		want, err := plain.Run(now, w.in, plainModel{w.cluster.Clone()})
		if err != nil {
			t.Fatal(err)
		}
		got, err := hinted.Run(now, w.in, plainModel{w.cluster.Clone()})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got, sameDecisions...); d != "" {
			t.Fatalf("with ContendClass (-without +with):\n%s", d)
		}
	})
}
