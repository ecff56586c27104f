package requeue

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/tenurepolicy/tenure/eligibility"
	"pgregory.net/rapid"
)

// injector numbers every callback the engine makes (model methods, undo
// steps, filters, CanContend, VictimOrder, the observer) and panics at the
// panicAt-th one.
type injector struct {
	seq     int
	panicAt int
	hit     string // the kind of callback that panicked
	// commits records, in a run without panic, the state after each commit
	// and the number of the observer call that reported it.
	cluster *Cluster
	commits []commitPoint
	kinds   []string // the kind of each callback
}

type commitPoint struct {
	seq  int
	snap ClusterSnapshot
}

type injectedPanic struct{ seq int }

func (in *injector) tick(kind string) {
	in.seq++
	in.kinds = append(in.kinds, kind)
	if in.seq == in.panicAt {
		in.hit = kind
		panic(injectedPanic{in.seq})
	}
}

// panicky wraps a Cluster; every method is a callback of the injector, and
// every change is followed by a no-op undo step that is one too. Shape and
// MayFit are forwarded, so the engine uses them.
type panicky struct {
	c   *Cluster
	inj *injector
}

func (m panicky) marker(j *Journal) { j.Record(func() { m.inj.tick("undo step") }) }

func (m panicky) Evict(j *Journal, id string) error {
	m.inj.tick("Evict")
	err := m.c.Evict(j, id)
	m.marker(j)
	return err
}

func (m panicky) Place(j *Journal, id string) (bool, error) {
	m.inj.tick("Place")
	ok, err := m.c.Place(j, id)
	m.marker(j)
	return ok, err
}

func (m panicky) Shape(id string) (string, bool) { m.inj.tick("Shape"); return m.c.Shape(id) }
func (m panicky) MayFit(v string, ids []string, fits []bool) {
	m.inj.tick("MayFit")
	m.c.MayFit(v, ids, fits)
}

// panickyTx is panicky over a Transactional model.
type panickyTx struct {
	panicky
	tx *txCluster
}

func (m panickyTx) Evict(j *Journal, id string) error {
	m.inj.tick("Evict")
	err := m.tx.Evict(j, id)
	m.marker(j)
	return err
}

func (m panickyTx) Place(j *Journal, id string) (bool, error) {
	m.inj.tick("Place")
	ok, err := m.tx.Place(j, id)
	m.marker(j)
	return ok, err
}

func (m panickyTx) Savepoint() Savepoint { m.inj.tick("Savepoint"); return m.tx.Savepoint() }
func (m panickyTx) Rollback(sp Savepoint) error {
	m.inj.tick("Rollback")
	return m.tx.Rollback(sp)
}

func (in *injector) Observe(ev eligibility.Event) {
	in.tick("Observer")
	if in.panicAt < 0 && (ev.Allowed && ev.Reason == ReasonCommitted || ev.Reason == ReasonFitWithoutEviction) {
		in.commits = append(in.commits, commitPoint{in.seq, in.cluster.Snapshot()})
	}
}

// config wraps the world's filters, CanContend and victim order as
// callbacks of the injector.
func (in *injector) config(cfg EngineConfig) EngineConfig {
	var filters []VictimFilter
	for _, f := range cfg.Filters {
		filters = append(filters, VictimFilterFunc(func(now time.Time, v *Victim, c *Contender) eligibility.Decision {
			in.tick("VictimFilter")
			return f.FilterVictim(now, v, c)
		}))
	}
	cfg.Filters = filters
	can := cfg.CanContend
	if can == nil {
		can = ContenderDefaultEligible
	}
	cfg.CanContend = func(v *Victim, c *Contender) bool { in.tick("CanContend"); return can(v, c) }
	cfg.VictimOrder = func(now time.Time, a, b *Victim) int { in.tick("VictimOrder"); return VictimDefaultOrder(now, a, b) }
	cfg.Observer = in
	return cfg
}

func (in *injector) model(c *Cluster, tx bool) Model {
	in.cluster = c
	p := panicky{c: c, inj: in}
	if tx {
		return panickyTx{p, &txCluster{c: c}}
	}
	return p
}

// checkPanicSafety runs the world's pass once without a panic, then with a
// panic at callback number at, on the same engine: Run must let the panic
// through, leave the model as it was at the last commit before the panic,
// and leave the engine as good as new.
func checkPanicSafety(t interface {
	Helper()
	Fatalf(string, ...any)
}, w engineWorld, tx bool, at func(kinds []string) int) string {
	t.Helper()
	now := t0.Add(10 * time.Hour)
	clean := &injector{panicAt: -1}
	e, err := NewEngine(clean.config(w.cfg))
	if err != nil {
		t.Fatalf("%v", err)
	}
	want, err := e.Run(now, w.in, clean.model(w.cluster.Clone(), tx))
	if err != nil {
		t.Fatalf("%v", err)
	}
	total := clean.seq
	if total == 0 {
		return ""
	}
	p := at(clean.kinds)

	inj := &injector{panicAt: p}
	e.cfg = inj.config(w.cfg)
	c := w.cluster.Clone()
	func() {
		defer func() {
			r := recover()
			if r != (injectedPanic{p}) {
				t.Fatalf("recovered %v, want the injected panic %d", r, p)
			}
		}()
		_, _ = e.Run(now, w.in, inj.model(c, tx))
		t.Fatalf("no panic at callback %d of %d", p, total)
	}()
	wantState := w.cluster.Snapshot()
	for _, cp := range clean.commits {
		if cp.seq <= p {
			wantState = cp.snap
		}
	}
	if d := cmp.Diff(wantState, c.Snapshot()); d != "" {
		t.Fatalf("panic in %s (callback %d of %d): model not at its last commit (-want +got):\n%s", inj.hit, p, total, d)
	}
	if err := c.check(); err != nil {
		t.Fatalf("panic in %s: %v", inj.hit, err)
	}
	if e.j.Len() != 0 || e.model != nil {
		t.Fatalf("panic in %s: the engine kept the pass (journal %d steps)", inj.hit, e.j.Len())
	}

	// The same engine runs the same pass as if nothing happened...
	again := &injector{panicAt: -1}
	e.cfg = again.config(w.cfg)
	got, err := e.Run(now, w.in, again.model(w.cluster.Clone(), tx))
	if err != nil {
		t.Fatalf("%v", err)
	}
	if d := cmp.Diff(want, got, errPresence, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("panic in %s: the next pass differs (-before +after):\n%s", inj.hit, d)
	}
	// ... and runs on the recovered model like a fresh engine.
	e.cfg = w.cfg
	fresh, _ := NewEngine(w.cfg)
	c2 := c.Clone()
	got, err1 := e.Run(now, w.in, c)
	want, err2 := fresh.Run(now, w.in, c2)
	if (err1 == nil) != (err2 == nil) {
		t.Fatalf("errors %v, %v", err1, err2)
	}
	if d := cmp.Diff(want, got, errPresence, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("panic in %s: reused engine on the recovered model (-fresh +reused):\n%s", inj.hit, d)
	}
	if d := cmp.Diff(c2.Snapshot(), c.Snapshot()); d != "" {
		t.Fatalf("panic in %s: reused engine's model (-fresh +reused):\n%s", inj.hit, d)
	}
	return inj.hit
}

// TestEnginePanicSafety injects a panic into every callback of passes over
// random worlds, with the journal and with a Transactional model.
func TestEnginePanicSafety(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t)
		tx := rapid.Bool().Draw(t, "transactional")
		// Pick a kind of callback, then one of its calls.
		checkPanicSafety(t, w, tx, func(kinds []string) int {
			kind := rapid.SampledFrom(kinds).Draw(t, "kind")
			var at []int
			for i, k := range kinds {
				if k == kind {
					at = append(at, i+1)
				}
			}
			return rapid.SampledFrom(at).Draw(t, "panicAt")
		})
	})
}

// TestEnginePanicEveryCallback: one small world, a panic at each of its
// callbacks in turn.
func TestEnginePanicEveryCallback(t *testing.T) {
	hit := map[string]int{}
	for _, tx := range []bool{false, true} {
		c := gpuCluster(t, 3, fxJob{id: "v1", gpus: []int64{4}, running: true}, fxJob{id: "v2", gpus: []int64{4}, running: true},
			fxJob{id: "v3", gpus: []int64{2}, running: true}, fxJob{id: "c1", gpus: []int64{2}}, fxJob{id: "x", gpus: []int64{2}},
			fxJob{id: "big", gpus: []int64{4, 4}}, fxJob{id: "free", gpus: []int64{2}})
		w := engineWorld{cluster: c, in: EngineInput{
			Nominations: noms("x", "v1", "v2", "v3"),
			Victims:     []Victim{{ID: "v1", Priority: 1}, {ID: "v2", Priority: 2}, {ID: "v3", Priority: 3}},
			Contenders:  []Contender{{ID: "c1", Priority: 9}, {ID: "x", Priority: 8}, {ID: "big", Priority: 7}, {ID: "free", Priority: 6}},
		}, cfg: EngineConfig{Filters: []VictimFilter{denyFilter{"v1/x": true}}}}
		clean := &injector{panicAt: -1}
		e, _ := NewEngine(clean.config(w.cfg))
		if _, err := e.Run(t0, w.in, clean.model(c.Clone(), tx)); err != nil {
			t.Fatal(err)
		}
		if len(clean.commits) < 3 {
			t.Fatalf("world too simple: %d commits", len(clean.commits))
		}
		for p := 1; p <= clean.seq; p++ {
			hit[checkPanicSafety(t, w, tx, func([]string) int { return p })]++
		}
	}
	// Every kind of callback was made to panic.
	for _, kind := range []string{"Evict", "Place", "Shape", "MayFit", "undo step", "VictimFilter", "CanContend", "VictimOrder", "Observer", "Savepoint", "Rollback"} {
		if hit[kind] == 0 {
			t.Errorf("no panic injected in %s: %v", kind, hit)
		}
	}
}

// TestEngineNilPanic: a callback that panics with nil (a
// runtime.PanicNilError since Go 1.21) is handled like any other.
func TestEngineNilPanic(t *testing.T) {
	c := gpuCluster(t, 1, fxJob{id: "v", gpus: []int64{4}, running: true}, fxJob{id: "p", gpus: []int64{4}})
	before := c.Snapshot()
	e, _ := NewEngine(EngineConfig{Filters: []VictimFilter{VictimFilterFunc(func(time.Time, *Victim, *Contender) eligibility.Decision {
		panic(nil)
	})}})
	in := EngineInput{Nominations: noms("x", "v"), Victims: []Victim{{ID: "v"}}, Contenders: []Contender{{ID: "p", Priority: 1}}}
	func() {
		defer func() {
			if r := recover(); r == nil {
				t.Fatal("no panic")
			}
		}()
		_, _ = e.Run(t0, in, c)
	}()
	if !before.Equal(c.Snapshot()) {
		t.Fatalf("model changed: %+v", c.Snapshot())
	}
	e.cfg.Filters = nil
	res, err := e.Run(t0, in, c)
	if err != nil || res.Outcomes[0].Kind != OutcomeCommitted {
		t.Fatalf("next pass: %+v, %v", res, err)
	}

}

// alwaysPanics is a model whose undo steps all panic, so that restoring
// after the panic panics too: the model is then unreliable (the panic says
// so), but the engine must still be as good as new.
type alwaysPanics struct{ c *Cluster }

func (m alwaysPanics) Evict(j *Journal, id string) error {
	err := m.c.Evict(j, id)
	j.Record(func() { panic("undo step failed") })
	return err
}

func (m alwaysPanics) Place(j *Journal, id string) (bool, error) {
	ok, err := m.c.Place(j, id)
	j.Record(func() { panic("undo step failed") })
	return ok, err
}

// evictFirst is a model whose fit bound rules out every placement without
// an eviction, so that a pass starts with an eviction.
type evictFirst struct{ plainModel }

func (evictFirst) MayFit(victim string, jobs []string, fits []bool) {
	for i := range fits {
		fits[i] = victim != ""
	}
}

func TestEngineRestoreThatPanics(t *testing.T) {
	c := gpuCluster(t, 2, fxJob{id: "v", gpus: []int64{4}, running: true}, fxJob{id: "w", gpus: []int64{4}, running: true},
		fxJob{id: "big", gpus: []int64{8}}, fxJob{id: "p", gpus: []int64{4}})
	in := EngineInput{
		Nominations: noms("x", "v", "w"),
		Victims:     []Victim{{ID: "v"}, {ID: "w", Priority: 1}},
		Contenders:  []Contender{{ID: "big", Priority: 9}, {ID: "p", Priority: 5}},
	}
	e, _ := NewEngine(EngineConfig{})
	func() {
		defer func() {
			if r := recover(); r != "undo step failed" {
				t.Fatalf("recovered %v", r)
			}
		}()
		_, _ = e.Run(t0, in, alwaysPanics{c.Clone()})
	}()
	// A journal whose rollback panicked may be unusable: the engine has a
	// new one, and the next passes are right. (The model evicts a victim
	// before its first rollback, and nothing fits: a journal stuck in its
	// rollback would not record the eviction, and not undo it.)
	in.Contenders = in.Contenders[:1]
	for range 2 {
		c1, c2 := c.Clone(), c.Clone()
		got, err := e.Run(t0, in, evictFirst{plainModel{c1}})
		want, err2 := (&Engine{}).Run(t0, in, evictFirst{plainModel{c2}})
		if err != nil || err2 != nil {
			t.Fatal(err, err2)
		}
		if d := cmp.Diff(want, got, errPresence, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("after a restore that panicked (-fresh +reused):\n%s", d)
		}
		if d := cmp.Diff(c2.Snapshot(), c1.Snapshot()); d != "" {
			t.Fatalf("after a restore that panicked, the model (-fresh +reused):\n%s", d)
		}
	}
}
