package requeue_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
	"github.com/tenurepolicy/tenure/requeue/internal/clustercheck"
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
	cluster *cluster.Model
	commits []commitPoint
	kinds   []string // the kind of each callback
}

type commitPoint struct {
	seq  int
	snap cluster.Snapshot
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
	c   *cluster.Model
	inj *injector
}

func (m panicky) marker(j *requeue.Journal) { j.Record(func() { m.inj.tick("undo step") }) }

func (m panicky) Evict(j *requeue.Journal, id string) error {
	m.inj.tick("Evict")
	err := m.c.Evict(j, id)
	m.marker(j)
	return err
}

func (m panicky) Place(j *requeue.Journal, id string) (bool, error) {
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
	tx requeue.Transactional
}

func (m panickyTx) Evict(j *requeue.Journal, id string) error {
	m.inj.tick("Evict")
	err := m.tx.Evict(j, id)
	m.marker(j)
	return err
}

func (m panickyTx) Place(j *requeue.Journal, id string) (bool, error) {
	m.inj.tick("Place")
	ok, err := m.tx.Place(j, id)
	m.marker(j)
	return ok, err
}

func (m panickyTx) Savepoint() uint64 { m.inj.tick("Savepoint"); return m.tx.Savepoint() }
func (m panickyTx) Rollback(sp uint64) error {
	m.inj.tick("Rollback")
	return m.tx.Rollback(sp)
}

func (in *injector) Observe(ev eligibility.Event) {
	in.tick("Observer")
	if in.panicAt < 0 && (ev.Allowed && ev.Reason == eligibility.Reason("committed") || ev.Reason == eligibility.Reason("fit_without_eviction")) {
		in.commits = append(in.commits, commitPoint{in.seq, in.cluster.Snapshot()})
	}
}

// config wraps the world's filters, CanContend and victim order as
// callbacks of the injector.
func (in *injector) config(cfg requeue.EngineConfig) requeue.EngineConfig {
	var filters []requeue.VictimFilter
	for _, f := range cfg.Filters {
		filters = append(filters, requeue.VictimFilterFunc(func(now time.Time, v *requeue.Victim, c *requeue.Contender) eligibility.Decision {
			in.tick("VictimFilter")
			return f.FilterVictim(now, v, c)
		}))
	}
	cfg.Filters = filters
	can := cfg.CanContend
	if can == nil {
		can = func(v *requeue.Victim, c *requeue.Contender) bool { return c.Priority > v.Priority } // the default rule
	}
	cfg.CanContend = func(v *requeue.Victim, c *requeue.Contender) bool { in.tick("CanContend"); return can(v, c) }
	cfg.VictimOrder = func(now time.Time, a, b *requeue.Victim) int {
		in.tick("VictimOrder")
		// The default order's tie-breakers: lowest priority, then the
		// largest overrun, then ID.
		switch {
		case a.Priority != b.Priority:
			return int(a.Priority) - int(b.Priority)
		case a.Overrun(now) != b.Overrun(now):
			if a.Overrun(now) > b.Overrun(now) {
				return -1
			}
			return 1
		}
		return strings.Compare(a.ID, b.ID)
	}
	cfg.Observer = in
	return cfg
}

// The models a panic is injected into: the Cluster with the engine's
// journal, a Transactional model, and the two hybrids.
const (
	journaled = iota
	transactional
	hybridEvictOwn
	hybridPlaceOwn
	modelKinds
)

func (in *injector) model(c *cluster.Model, kind int) requeue.Model {
	in.cluster = c
	p := panicky{c: c, inj: in}
	switch kind {
	case transactional:
		return panickyTx{p, &txCluster{c: c}}
	case hybridEvictOwn, hybridPlaceOwn:
		return panickyTx{p, hybrids[kind-hybridEvictOwn].model(c)}
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
}, w engineWorld, kind int, at func(kinds []string) int) string {
	t.Helper()
	now := t0.Add(10 * time.Hour)
	clean := &injector{panicAt: -1}
	e, err := requeue.NewEngine(clean.config(w.cfg))
	if err != nil {
		t.Fatalf("%v", err)
	}
	want, err := e.Run(now, w.in, clean.model(w.cluster.Clone(), kind))
	if err != nil {
		t.Fatalf("%v", err)
	}
	total := clean.seq
	if total == 0 {
		return ""
	}
	p := at(clean.kinds)

	inj := &injector{panicAt: p}
	*requeue.Config(e) = inj.config(w.cfg)
	c := w.cluster.Clone()
	unrestored := false // Run said that the model was not restored
	func() {
		defer func() {
			r := recover()
			if inj.hit == "undo step" || inj.hit == "Rollback" {
				// The restore cannot know what a panicking undo step left:
				// it says so. (These undo steps and rollbacks panic before
				// changing anything, so the model is restored all the same.)
				if re, ok := r.(*requeue.RestoreError); !ok || re.Panic != (injectedPanic{p}) || !errors.Is(re, requeue.ErrUndoPanicked) {
					t.Fatalf("recovered %v, want a *RestoreError for the injected panic %d", r, p)
				}
				unrestored = true
				return
			}
			if r != (injectedPanic{p}) {
				t.Fatalf("recovered %v, want the injected panic %d", r, p)
			}
		}()
		_, _ = e.Run(now, w.in, inj.model(c, kind))
		t.Fatalf("no panic at callback %d of %d", p, total)
	}()
	wantState := w.cluster.Snapshot()
	for _, cp := range clean.commits {
		if cp.seq <= p {
			wantState = cp.snap
		}
	}
	// With the journal alone or the model's transactions alone, the
	// restore undoes everything but the injected no-op. With a hybrid, the
	// change a skipped Rollback should have undone can make an older undo
	// step find the model changed (the Cluster's steps then panic): such a
	// model is not restored, as Run said.
	//
	// A model Run reports unrestored promises nothing (RestoreError's
	// contract): not its last commit, not even its own invariants, since
	// the Cluster's steps that found it changed were dropped half done. So
	// only a restored model is checked and reused below.
	promised := !(unrestored && kind >= hybridEvictOwn)
	if d := cmp.Diff(wantState, c.Snapshot()); d != "" && promised {
		t.Fatalf("model kind %d, panic in %s (callback %d of %d): model not at its last commit (-want +got):\n%s", kind, inj.hit, p, total, d)
	}
	if err := clustercheck.Check(c); err != nil && promised {
		t.Fatalf("panic in %s: %v", inj.hit, err)
	}
	if requeue.JournalLen(e) != 0 || requeue.HoldsModel(e) {
		t.Fatalf("panic in %s: the engine kept the pass (journal %d steps)", inj.hit, requeue.JournalLen(e))
	}

	// The same engine runs the same pass as if nothing happened...
	again := &injector{panicAt: -1}
	*requeue.Config(e) = again.config(w.cfg)
	got, err := e.Run(now, w.in, again.model(w.cluster.Clone(), kind))
	if err != nil {
		t.Fatalf("%v", err)
	}
	if d := cmp.Diff(want, got, errPresence, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("panic in %s: the next pass differs (-before +after):\n%s", inj.hit, d)
	}
	if !promised {
		return inj.hit
	}
	// ... and runs on the recovered model like a fresh engine.
	*requeue.Config(e) = w.cfg
	fresh, _ := requeue.NewEngine(w.cfg)
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
// random worlds, with the journal, with a Transactional model and with
// both hybrids.
func TestEnginePanicSafety(t *testing.T) {
	rapid.Check(t, panicSafety)
}

// TestEnginePanicSafetySeeds replays the seeds at which
// TestEnginePanicSafety once failed.
func TestEnginePanicSafetySeeds(t *testing.T) {
	// A hybrid model's Rollback panicked and the journal's older steps
	// left a gang below its minimum: the model is unrestored and promises
	// nothing (RestoreError), which the check once forgot.
	checkSeeds(t, panicSafety, 12375197435808575987)
}

func panicSafety(t *rapid.T) {
	w := drawWorld(t)
	model := rapid.IntRange(0, modelKinds-1).Draw(t, "model")
	// Pick a kind of callback, then one of its calls.
	checkPanicSafety(t, w, model, func(kinds []string) int {
		kind := rapid.SampledFrom(kinds).Draw(t, "kind")
		var at []int
		for i, k := range kinds {
			if k == kind {
				at = append(at, i+1)
			}
		}
		return rapid.SampledFrom(at).Draw(t, "panicAt")
	})
}

// TestEnginePanicEveryCallback: one small world, a panic at each of its
// callbacks in turn.
func TestEnginePanicEveryCallback(t *testing.T) {
	hit := map[string]int{}
	for kind := range modelKinds {
		c := gpuCluster(t, 3, fxJob{id: "v1", gpus: []int64{4}, running: true}, fxJob{id: "v2", gpus: []int64{4}, running: true},
			fxJob{id: "v3", gpus: []int64{2}, running: true}, fxJob{id: "c1", gpus: []int64{2}}, fxJob{id: "x", gpus: []int64{2}},
			fxJob{id: "big", gpus: []int64{4, 4}}, fxJob{id: "free", gpus: []int64{2}})
		w := engineWorld{cluster: c, in: requeue.EngineInput{
			Nominations: noms("x", "v1", "v2", "v3"),
			Victims:     []requeue.Victim{{ID: "v1", Priority: 1}, {ID: "v2", Priority: 2}, {ID: "v3", Priority: 3}},
			Contenders:  []requeue.Contender{{ID: "c1", Priority: 9}, {ID: "x", Priority: 8}, {ID: "big", Priority: 7}, {ID: "free", Priority: 6}},
		}, cfg: requeue.EngineConfig{Filters: []requeue.VictimFilter{denyFilter{"v1/x": true}}}}
		clean := &injector{panicAt: -1}
		e, _ := requeue.NewEngine(clean.config(w.cfg))
		if _, err := e.Run(t0, w.in, clean.model(c.Clone(), kind)); err != nil {
			t.Fatal(err)
		}
		if len(clean.commits) < 3 {
			t.Fatalf("world too simple: %d commits", len(clean.commits))
		}
		for p := 1; p <= clean.seq; p++ {
			hit[checkPanicSafety(t, w, kind, func([]string) int { return p })]++
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
	e, _ := requeue.NewEngine(requeue.EngineConfig{Filters: []requeue.VictimFilter{requeue.VictimFilterFunc(func(time.Time, *requeue.Victim, *requeue.Contender) eligibility.Decision {
		panic(nil)
	})}})
	in := requeue.EngineInput{Nominations: noms("x", "v"), Victims: []requeue.Victim{{ID: "v"}}, Contenders: []requeue.Contender{{ID: "p", Priority: 1}}}
	func() {
		defer func() {
			if r := recover(); r == nil {
				t.Fatal("no panic")
			}
		}()
		_, _ = e.Run(t0, in, c)
	}()
	if !cmp.Equal(before, c.Snapshot()) {
		t.Fatalf("model changed: %+v", c.Snapshot())
	}
	requeue.Config(e).Filters = nil
	res, err := e.Run(t0, in, c)
	if err != nil || res.Outcomes[0].Kind != requeue.OutcomeCommitted {
		t.Fatalf("next pass: %+v, %v", res, err)
	}

}

// alwaysPanics is a model whose undo steps all panic, so that restoring
// after the panic panics too: the model is then unreliable (the
// *RestoreError says so), but the engine must still be as good as new.
type alwaysPanics struct{ c *cluster.Model }

func (m alwaysPanics) Evict(j *requeue.Journal, id string) error {
	err := m.c.Evict(j, id)
	j.Record(func() { panic("undo step failed") })
	return err
}

func (m alwaysPanics) Place(j *requeue.Journal, id string) (bool, error) {
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
	in := requeue.EngineInput{
		Nominations: noms("x", "v", "w"),
		Victims:     []requeue.Victim{{ID: "v"}, {ID: "w", Priority: 1}},
		Contenders:  []requeue.Contender{{ID: "big", Priority: 9}, {ID: "p", Priority: 5}},
	}
	e, _ := requeue.NewEngine(requeue.EngineConfig{})
	func() {
		defer func() {
			r := recover()
			re, ok := r.(*requeue.RestoreError)
			if !ok || re.Panic != "undo step failed" || !errors.Is(re, requeue.ErrUndoPanicked) {
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
		want, err2 := (&requeue.Engine{}).Run(t0, in, evictFirst{plainModel{c2}})
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

// onceUndoPanics is a model over a Cluster whose successful placements
// record one more undo step, which panics the first time it runs while
// armed (and does nothing otherwise). With a non-nil then, Place itself
// panics with it after its first successful placement, while armed.
type onceUndoPanics struct {
	c     *cluster.Model
	armed *bool
	then  any
}

func (m onceUndoPanics) Evict(j *requeue.Journal, id string) error { return m.c.Evict(j, id) }
func (m onceUndoPanics) Place(j *requeue.Journal, id string) (bool, error) {
	ok, err := m.c.Place(j, id)
	if ok && err == nil {
		j.Record(func() {
			if *m.armed {
				*m.armed = false
				panic("undo step panics")
			}
		})
		if m.then != nil && *m.armed {
			panic(m.then)
		}
	}
	return ok, err
}

// recoverRun runs the pass and returns what it panicked with (nil if it
// did not).
func recoverRun(e *requeue.Engine, in requeue.EngineInput, m requeue.Model) (r any) {
	defer func() { r = recover() }()
	_, _ = e.Run(t0, in, m)
	return nil
}

// TestEngineRestoreErrors: when the model cannot be restored to the last
// commit, Run panics with a *RestoreError that carries the original panic
// and what failed; when it can, with the original value.
func TestEngineRestoreErrors(t *testing.T) {
	in := requeue.EngineInput{Nominations: noms("x", "v"), Victims: []requeue.Victim{{ID: "v"}}, Contenders: []requeue.Contender{{ID: "p", Priority: 5}}}
	denyAll := requeue.VictimFilterFunc(func(time.Time, *requeue.Victim, *requeue.Contender) eligibility.Decision {
		return eligibility.Decision{Reason: "no"}
	})
	panics := requeue.VictimFilterFunc(func(time.Time, *requeue.Victim, *requeue.Contender) eligibility.Decision { panic("filter panics") })

	t.Run("an undo step panics while an attempt is rolled back", func(t *testing.T) {
		// p fits in v's resources; when the set search rolls that trial
		// back, the step that undoes p's placement panics before undoing
		// it: that step is dropped, so p stays placed.
		m := &oneNode{free: 0, size: map[string]int{"v": 4, "p": 4}, running: map[string]bool{"v": true}, armed: true}
		e, _ := requeue.NewEngine(requeue.EngineConfig{Filters: []requeue.VictimFilter{denyAll}})
		r := recoverRun(e, in, m)
		re, ok := r.(*requeue.RestoreError)
		if !ok {
			t.Fatalf("recovered %#v, want a *RestoreError", r)
		}
		if re.Panic != "undo step panics" || re.Restore == nil {
			t.Fatalf("RestoreError %+v", re)
		}
		for _, want := range []string{"undo step panics", "not restored", "rebuild"} {
			if !strings.Contains(re.Error(), want) {
				t.Errorf("%q does not say %q", re.Error(), want)
			}
		}
		// What the restore could do, it did: v's eviction is undone. The
		// model is not at the last commit (p runs, the node is
		// overcommitted), as the error says.
		if !m.running["v"] || !m.running["p"] || m.free != -4 {
			t.Fatalf("model %+v", m)
		}
		// The engine is as good as new.
		c := gpuCluster(t, 1, fxJob{id: "v", gpus: []int64{4}, running: true}, fxJob{id: "p", gpus: []int64{4}})
		requeue.Config(e).Filters = nil
		res, err := e.Run(t0, in, c)
		if err != nil || res.Outcomes[0].Kind != requeue.OutcomeCommitted {
			t.Fatalf("next pass: %+v, %v", res, err)
		}
	})

	t.Run("an undo step panics during the restore", func(t *testing.T) {
		// The model panics right after placing p in v's resources;
		// undoing p's placement, the extra step panics. The restore goes
		// on past it: p's and v's own steps are undone.
		c := gpuCluster(t, 1, fxJob{id: "v", gpus: []int64{4}, running: true}, fxJob{id: "p", gpus: []int64{4}})
		before := c.Snapshot()
		armed := true
		e, _ := requeue.NewEngine(requeue.EngineConfig{})
		r := recoverRun(e, in, onceUndoPanics{c, &armed, "model panics"})
		re, ok := r.(*requeue.RestoreError)
		if !ok || re.Panic != "model panics" || !strings.Contains(fmt.Sprint(re.Restore), "undo step panics") {
			t.Fatalf("recovered %#v", r)
		}
		if d := cmp.Diff(before, c.Snapshot()); d != "" {
			t.Fatalf("the restore stopped at the panicking step (-before +after):\n%s", d)
		}
	})

	t.Run("the model's Rollback fails during the restore", func(t *testing.T) {
		c := gpuCluster(t, 1, fxJob{id: "v", gpus: []int64{4}, running: true}, fxJob{id: "p", gpus: []int64{4}})
		refuse := errors.New("statement closed")
		m := &failingRollback{txCluster: &txCluster{c: c}}
		e, _ := requeue.NewEngine(requeue.EngineConfig{Filters: []requeue.VictimFilter{requeue.VictimFilterFunc(func(time.Time, *requeue.Victim, *requeue.Contender) eligibility.Decision {
			m.err = refuse
			panic("filter panics")
		})}})
		r := recoverRun(e, in, m)
		re, ok := r.(*requeue.RestoreError)
		if !ok || re.Panic != "filter panics" || !errors.Is(re, refuse) {
			t.Fatalf("recovered %#v, want a *RestoreError wrapping the Rollback error", r)
		}
	})

	t.Run("an error panic stays reachable", func(t *testing.T) {
		boom := errors.New("boom")
		c := gpuCluster(t, 1, fxJob{id: "v", gpus: []int64{4}, running: true}, fxJob{id: "p", gpus: []int64{4}})
		armed := true
		e, _ := requeue.NewEngine(requeue.EngineConfig{})
		r := recoverRun(e, in, onceUndoPanics{c, &armed, boom})
		if re, ok := r.(*requeue.RestoreError); !ok || !errors.Is(re, boom) {
			t.Fatalf("recovered %#v, want a *RestoreError wrapping the panic's error", r)
		}
	})

	t.Run("a complete restore re-panics with the original value", func(t *testing.T) {
		c := gpuCluster(t, 1, fxJob{id: "v", gpus: []int64{4}, running: true}, fxJob{id: "p", gpus: []int64{4}})
		before := c.Snapshot()
		e, _ := requeue.NewEngine(requeue.EngineConfig{Filters: []requeue.VictimFilter{panics}})
		if r := recoverRun(e, in, c); r != "filter panics" {
			t.Fatalf("recovered %#v", r)
		}
		if d := cmp.Diff(before, c.Snapshot()); d != "" {
			t.Fatalf("(-before +after):\n%s", d)
		}
	})
}

// failingRollback is a Transactional model whose Rollback fails with err
// once err is set.
type failingRollback struct {
	*txCluster
	err error
}

func (m *failingRollback) Rollback(sp uint64) error {
	if m.err != nil {
		return m.err
	}
	return m.txCluster.Rollback(sp)
}

// oneNode is a one-node model whose placement undo step panics, before
// undoing anything, the first time it runs while armed.
type oneNode struct {
	free    int
	size    map[string]int
	running map[string]bool
	armed   bool
}

func (m *oneNode) Evict(j *requeue.Journal, id string) error {
	if !m.running[id] {
		return errors.New("not running")
	}
	m.running[id], m.free = false, m.free+m.size[id]
	j.Record(func() { m.running[id], m.free = true, m.free-m.size[id] })
	return nil
}

func (m *oneNode) Place(j *requeue.Journal, id string) (bool, error) {
	if m.free < m.size[id] {
		return false, nil
	}
	m.running[id], m.free = true, m.free-m.size[id]
	j.Record(func() {
		if m.armed {
			m.armed = false
			panic("undo step panics")
		}
		m.running[id], m.free = false, m.free+m.size[id]
	})
	return true, nil
}
