package runtime_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// q is a queue of a test tree with its settings in KAI string form.
type q struct{ name, parent, preempt, reclaim string }

// build makes a tree and a resolver from KAI-style strings, failing the
// test on any error.
func build(tb testing.TB, args map[string]string, qs ...q) (*queuetree.Tree, *runtime.Resolver) {
	tb.Helper()
	var queues []queuetree.Queue
	var fields []runtime.QueueFields
	for _, x := range qs {
		queues = append(queues, queuetree.Queue{Name: x.name, Parent: x.parent})
		fields = append(fields, runtime.QueueFields{Name: x.name, PreemptMinRuntime: x.preempt, ReclaimMinRuntime: x.reclaim})
	}
	tree, err := queuetree.New(queues)
	if err != nil {
		tb.Fatal(err)
	}
	cfg, err := runtime.ParseConfig(args, fields)
	if err != nil {
		tb.Fatal(err)
	}
	r, err := runtime.NewResolver(tree, cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return tree, r
}

// designReclaim is the reclaim example of KAI-Scheduler's min-runtime design (PR #126):
// A → B(600s) → {C → {leaf1(0s), leaf2(180s)}, D(60s) → leaf3}.
func designReclaim(tb testing.TB, method string) (*queuetree.Tree, *runtime.Resolver) {
	return build(tb, map[string]string{"reclaimResolveMethod": method},
		q{name: "A"},
		q{name: "B", parent: "A", reclaim: "600s"},
		q{name: "C", parent: "B"},
		q{name: "D", parent: "B", reclaim: "60s"},
		q{name: "leaf1", parent: "C", reclaim: "0s"},
		q{name: "leaf2", parent: "C", reclaim: "180s"},
		q{name: "leaf3", parent: "D"},
	)
}

func id(tb testing.TB, t *queuetree.Tree, name string) queuetree.ID {
	tb.Helper()
	x, ok := t.Lookup(name)
	if !ok {
		tb.Fatalf("queue %q not in tree", name)
	}
	return x
}

// want is a Resolution by source name, filled in with the source's ID.
func want(tb testing.TB, t *queuetree.Tree, a runtime.Action, m runtime.Method, d time.Duration, source string) runtime.Resolution {
	tb.Helper()
	r := runtime.Resolution{Duration: d, Source: queuetree.None, Action: a, Method: m}
	if source != "" {
		r.Source, r.SourceName = id(tb, t, source), source
	}
	return r
}

// TestDesignDocReclaim checks the three worked examples of KAI-Scheduler's min-runtime design under
// both methods, plus the reverse pairs.
func TestDesignDocReclaim(t *testing.T) {
	tests := []struct {
		method, reclaimer, victim string
		d                         time.Duration
		source                    string
	}{
		// Example 1: LCA B, child toward leaf3 is D (60s).
		{"lca", "leaf1", "leaf3", 60 * time.Second, "D"},
		// Example 2: LCA C, child toward leaf2 is leaf2 (180s).
		{"lca", "leaf1", "leaf2", 180 * time.Second, "leaf2"},
		// Example 3: LCA B, child toward leaf1 is C, unset: inherits B's 600s.
		{"lca", "leaf3", "leaf1", 600 * time.Second, "B"},
		// The reverse of example 2: LCA C, child leaf1, explicit 0.
		{"lca", "leaf2", "leaf1", 0, "leaf1"},
		// The queue method always walks from the victim.
		{"queue", "leaf1", "leaf3", 60 * time.Second, "D"},
		{"queue", "leaf1", "leaf2", 180 * time.Second, "leaf2"},
		{"queue", "leaf3", "leaf1", 0, "leaf1"}, // leaf1's explicit 0 stops inheritance
		{"queue", "leaf2", "leaf1", 0, "leaf1"},
	}
	for _, tt := range tests {
		tree, r := designReclaim(t, tt.method)
		m, err := runtime.ParseMethod(tt.method)
		if err != nil {
			t.Fatal(err)
		}
		got := r.Resolve(runtime.ActionReclaim, id(t, tree, tt.reclaimer), id(t, tree, tt.victim))
		w := want(t, tree, runtime.ActionReclaim, m, tt.d, tt.source)
		if diff := cmp.Diff(w, got); diff != "" {
			t.Errorf("%s: Reclaim(%s → %s) mismatch (-want +got):\n%s", tt.method, tt.reclaimer, tt.victim, diff)
		}
	}
}

// TestDesignDocPreempt checks the preemption examples of KAI-Scheduler's min-runtime design:
// A → B(600s) → C → {leaf1(300s), leaf2}.
func TestDesignDocPreempt(t *testing.T) {
	tree, r := build(t, nil,
		q{name: "A"},
		q{name: "B", parent: "A", preempt: "600s"},
		q{name: "C", parent: "B"},
		q{name: "leaf1", parent: "C", preempt: "300s"},
		q{name: "leaf2", parent: "C"},
	)
	tests := []struct {
		victim string
		d      time.Duration
		source string
	}{
		{"leaf1", 300 * time.Second, "leaf1"},
		{"leaf2", 600 * time.Second, "B"},
		{"C", 600 * time.Second, "B"},
		{"B", 600 * time.Second, "B"},
		{"A", 0, ""}, // nothing set above A: the default
	}
	for _, tt := range tests {
		got := r.Resolve(runtime.ActionPreempt, queuetree.None, id(t, tree, tt.victim))
		w := want(t, tree, runtime.ActionPreempt, runtime.MethodQueue, tt.d, tt.source)
		if diff := cmp.Diff(w, got); diff != "" {
			t.Errorf("Preempt(%s) mismatch (-want +got):\n%s", tt.victim, diff)
		}
		// The preemptor is not consulted for a preemption.
		if res := r.Resolve(runtime.ActionPreempt, id(t, tree, "leaf1"), id(t, tree, tt.victim)); res != got {
			t.Errorf("Resolve(preempt, None, %s) = %v; want %v", tt.victim, res, got)
		}
	}
}

// TestPluginDocConfig uses the configuration example of KAI-Scheduler's docs/plugins/minruntime.md: plugin defaults of 10m
// with the lca method, queue "production" with preemptMinRuntime 20s and
// reclaimMinRuntime 30s; and its workflow: a job in a queue with 30s reclaim
// min-runtime is protected at 20s of runtime and reclaimable from 30s.
func TestPluginDocConfig(t *testing.T) {
	args := map[string]string{
		"defaultPreemptMinRuntime": "10m",
		"defaultReclaimMinRuntime": "10m",
		"reclaimResolveMethod":     "lca",
	}
	tree, r := build(t, args,
		q{name: "production", preempt: "20s", reclaim: "30s"},
		q{name: "research"},
	)
	prod, research := id(t, tree, "production"), id(t, tree, "research")

	checks := []struct {
		name string
		got  runtime.Resolution
		want runtime.Resolution
	}{
		{"preempt in production", r.Resolve(runtime.ActionPreempt, queuetree.None, prod), want(t, tree, runtime.ActionPreempt, runtime.MethodQueue, 20*time.Second, "production")},
		{"preempt in research (default)", r.Resolve(runtime.ActionPreempt, queuetree.None, research), want(t, tree, runtime.ActionPreempt, runtime.MethodQueue, 10*time.Minute, "")},
		{"research reclaims from production", r.Resolve(runtime.ActionReclaim, research, prod), want(t, tree, runtime.ActionReclaim, runtime.MethodLCA, 30*time.Second, "production")},
		{"production reclaims from research (default)", r.Resolve(runtime.ActionReclaim, prod, research), want(t, tree, runtime.ActionReclaim, runtime.MethodLCA, 10*time.Minute, "")},
	}
	for _, c := range checks {
		if diff := cmp.Diff(c.want, c.got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}

	// The workflow: started at t0, reclaim attempted at 20s, 30s.
	t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	res := r.Resolve(runtime.ActionReclaim, research, prod)
	if !protected(t0, res.Duration, t0.Add(20*time.Second)) {
		t.Error("at 20s of a 30s reclaim min-runtime the job must be protected")
	}
	if protected(t0, res.Duration, t0.Add(30*time.Second)) {
		t.Error("at exactly 30s the job must be reclaimable")
	}
	if got, w := runtime.ProtectedUntil(t0, res.Duration), t0.Add(30*time.Second); !got.Equal(w) {
		t.Errorf("ProtectedUntil = %v; want %v", got, w)
	}

	// Without plugin arguments every default is 0s ("instantly").
	tree, r = build(t, nil, q{name: "production"})
	p := id(t, tree, "production")
	for _, res := range []runtime.Resolution{r.Resolve(runtime.ActionPreempt, queuetree.None, p), r.Resolve(runtime.ActionReclaim, p, p)} {
		if res.Duration != 0 || res.Source != queuetree.None {
			t.Errorf("without arguments: %v; want 0s from default", res)
		}
	}
}

// TestReclaimShapes covers the LCA method's structural cases beyond the
// seed: the same queue, ancestor/descendant pairs, different top-level
// queues meeting at the implicit root, and inner-queue victims.
func TestReclaimShapes(t *testing.T) {
	//   X(1m) → Y → {Z(0s) → Z1, W}     T(5m) → U(2m) → V
	tree, r := build(t, map[string]string{"defaultReclaimMinRuntime": "7m"},
		q{name: "X", reclaim: "1m"},
		q{name: "Y", parent: "X"},
		q{name: "Z", parent: "Y", reclaim: "0s"},
		q{name: "Z1", parent: "Z"},
		q{name: "W", parent: "Y"},
		q{name: "T", reclaim: "5m"},
		q{name: "U", parent: "T", reclaim: "2m"},
		q{name: "V", parent: "U"},
		q{name: "Lone"},
	)
	tests := []struct {
		name, reclaimer, victim string
		d                       time.Duration
		source                  string
	}{
		{"same queue uses the queue's own value", "Z1", "Z1", 0, "Z"},
		{"same queue inherits", "W", "W", time.Minute, "X"},
		{"reclaimer below victim's queue: c is the victim's queue", "Z1", "Y", time.Minute, "X"},
		{"victim below reclaimer's queue: c is the child of the reclaimer's queue", "Y", "Z1", 0, "Z"},
		{"siblings: c is the victim's queue", "W", "Z1", 0, "Z"},
		{"cousins under different top-level queues: c is the victim's top-level queue", "V", "Z1", time.Minute, "X"},
		{"the victim's top-level queue's setting wins over deeper ones", "Z1", "V", 5 * time.Minute, "T"},
		{"within T: c is U", "T", "V", 2 * time.Minute, "U"},
		{"nothing set on the walk: default", "V", "Lone", 7 * time.Minute, ""},
	}
	for _, tt := range tests {
		got := r.Resolve(runtime.ActionReclaim, id(t, tree, tt.reclaimer), id(t, tree, tt.victim))
		w := want(t, tree, runtime.ActionReclaim, runtime.MethodLCA, tt.d, tt.source)
		if diff := cmp.Diff(w, got); diff != "" {
			t.Errorf("%s: Reclaim(%s → %s) (-want +got):\n%s", tt.name, tt.reclaimer, tt.victim, diff)
		}
	}
}

// TestInheritance pins the resolver's walk rules with positive values
// above and around: unset inherits, an explicit 0 stops inheritance (for
// preempt and both reclaim methods), and the defaults apply only when
// nothing on the walk is set.
//
//	top (5m, 5m) ─┬─ mid (0s, 0s) ─── leaf
//	              └─ other ────────── otherLeaf (2m, 3m)
//	bare
func TestInheritance(t *testing.T) {
	args := map[string]string{"defaultPreemptMinRuntime": "7m", "defaultReclaimMinRuntime": "8m"}
	queues := []q{
		{name: "top", preempt: "5m", reclaim: "5m"},
		{name: "mid", parent: "top", preempt: "0s", reclaim: "0s"},
		{name: "leaf", parent: "mid"},
		{name: "other", parent: "top"},
		{name: "otherLeaf", parent: "other", preempt: "2m", reclaim: "3m"},
		{name: "bare"},
	}
	tests := []struct {
		name              string
		action            runtime.Action
		method            string // for reclaims
		reclaimer, victim string
		d                 time.Duration
		source            string
	}{
		{"preempt: explicit 0 below a positive value", runtime.ActionPreempt, "", "", "leaf", 0, "mid"},
		{"preempt: explicit 0 on the queue itself", runtime.ActionPreempt, "", "", "mid", 0, "mid"},
		{"preempt: unset inherits", runtime.ActionPreempt, "", "", "other", 5 * time.Minute, "top"},
		{"preempt: the nearest setting wins", runtime.ActionPreempt, "", "", "otherLeaf", 2 * time.Minute, "otherLeaf"},
		{"preempt: nothing set, the default", runtime.ActionPreempt, "", "", "bare", 7 * time.Minute, ""},
		{"queue: explicit 0 below a positive value", runtime.ActionReclaim, "queue", "bare", "leaf", 0, "mid"},
		{"queue: unset inherits", runtime.ActionReclaim, "queue", "bare", "other", 5 * time.Minute, "top"},
		{"queue: nothing set, the default", runtime.ActionReclaim, "queue", "leaf", "bare", 8 * time.Minute, ""},
		{"lca: c is mid, its explicit 0 applies", runtime.ActionReclaim, "lca", "otherLeaf", "leaf", 0, "mid"},
		{"lca: reclaimer below the victim, c is the victim's queue", runtime.ActionReclaim, "lca", "leaf", "mid", 0, "mid"},
		{"lca: across top-level queues, c is top and mid's 0 is not on the walk", runtime.ActionReclaim, "lca", "bare", "leaf", 5 * time.Minute, "top"},
		{"lca: c is other, unset, inherits", runtime.ActionReclaim, "lca", "leaf", "otherLeaf", 5 * time.Minute, "top"},
		{"lca: nothing set, the default", runtime.ActionReclaim, "lca", "leaf", "bare", 8 * time.Minute, ""},
	}
	for _, tt := range tests {
		method := runtime.MethodQueue
		if tt.action == runtime.ActionReclaim {
			args["reclaimResolveMethod"] = tt.method
			method, _ = runtime.ParseMethod(tt.method)
		}
		tree, r := build(t, args, queues...)
		preemptor, _ := tree.Lookup(tt.reclaimer) // None for a preemption's ""
		got := r.Resolve(tt.action, preemptor, id(t, tree, tt.victim))
		if diff := cmp.Diff(want(t, tree, tt.action, method, tt.d, tt.source), got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestInvalidIDs checks that IDs the tree did not issue resolve to the
// default and never panic, and that Root resolves to the default.
func TestInvalidIDs(t *testing.T) {
	args := map[string]string{
		"defaultPreemptMinRuntime": "3m",
		"defaultReclaimMinRuntime": "4m",
	}
	for _, method := range []string{"lca", "queue"} {
		args["reclaimResolveMethod"] = method
		tree, r := build(t, args, q{name: "a", preempt: "1m", reclaim: "1m"}, q{name: "b", parent: "a"})
		m := r.Method()
		a, b := id(t, tree, "a"), id(t, tree, "b")
		bad := []queuetree.ID{queuetree.None, queuetree.ID(tree.IDLimit()), 1 << 30, -7}
		defPreempt := want(t, tree, runtime.ActionPreempt, runtime.MethodQueue, 3*time.Minute, "")
		defReclaim := want(t, tree, runtime.ActionReclaim, m, 4*time.Minute, "")
		for _, x := range bad {
			if diff := cmp.Diff(defPreempt, r.Resolve(runtime.ActionPreempt, queuetree.None, x)); diff != "" {
				t.Errorf("Preempt(%d) (-want +got):\n%s", x, diff)
			}
			if diff := cmp.Diff(defReclaim, r.Resolve(runtime.ActionReclaim, a, x)); diff != "" {
				t.Errorf("%v: Reclaim(a, %d) (-want +got):\n%s", m, x, diff)
			}
			wantBadReclaimer := defReclaim
			if m == runtime.MethodQueue { // the reclaimer is not consulted
				wantBadReclaimer = want(t, tree, runtime.ActionReclaim, m, time.Minute, "a")
			}
			if diff := cmp.Diff(wantBadReclaimer, r.Resolve(runtime.ActionReclaim, x, b)); diff != "" {
				t.Errorf("%v: Reclaim(%d, b) (-want +got):\n%s", m, x, diff)
			}
		}
		if diff := cmp.Diff(defPreempt, r.Resolve(runtime.ActionPreempt, queuetree.None, queuetree.Root)); diff != "" {
			t.Errorf("Preempt(Root) (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(defReclaim, r.Resolve(runtime.ActionReclaim, b, queuetree.Root)); diff != "" {
			t.Errorf("Reclaim(b, Root) (-want +got):\n%s", diff)
		}
		// An unknown Action never protects.
		if got := r.Resolve(runtime.Action(9), a, b); got.Duration != 0 || got.Source != queuetree.None {
			t.Errorf("Resolve(Action(9)) = %v; want a zero duration from the default", got)
		}
	}
}

// TestNilResolver checks that a nil *Resolver and the zero Resolver answer
// a zero duration from the default and never panic.
func TestNilResolver(t *testing.T) {
	for name, r := range map[string]*runtime.Resolver{"nil": nil, "zero": {}} {
		t.Run(name, func(t *testing.T) { testEmptyResolver(t, r) })
	}
}

func testEmptyResolver(t *testing.T, r *runtime.Resolver) {
	if r.Tree() != nil || r.Method() != runtime.MethodLCA {
		t.Error("Tree() must be nil and Method() MethodLCA")
	}
	wantP := runtime.Resolution{Source: queuetree.None, Action: runtime.ActionPreempt, Method: runtime.MethodQueue}
	wantR := runtime.Resolution{Source: queuetree.None, Action: runtime.ActionReclaim, Method: runtime.MethodLCA}
	for _, x := range []queuetree.ID{queuetree.None, queuetree.Root, 5} {
		if diff := cmp.Diff(wantP, r.Resolve(runtime.ActionPreempt, queuetree.None, x)); diff != "" {
			t.Errorf("nil.Resolve(runtime.ActionPreempt, queuetree.None, %d) (-want +got):\n%s", x, diff)
		}
		if diff := cmp.Diff(wantR, r.Resolve(runtime.ActionReclaim, x, x)); diff != "" {
			t.Errorf("nil.Resolve(runtime.ActionReclaim, %d) (-want +got):\n%s", x, diff)
		}
		if diff := cmp.Diff(wantR, r.Resolve(runtime.ActionReclaim, x, x)); diff != "" {
			t.Errorf("nil.Resolve(%d) (-want +got):\n%s", x, diff)
		}
	}
}

func TestResolutionString(t *testing.T) {
	tree, r := designReclaim(t, "lca")
	tests := []struct {
		res  runtime.Resolution
		want string
	}{
		{r.Resolve(runtime.ActionReclaim, id(t, tree, "leaf3"), id(t, tree, "leaf1")), "reclaim min-runtime 10m from queue B (lca)"},
		{r.Resolve(runtime.ActionReclaim, id(t, tree, "leaf2"), id(t, tree, "leaf1")), "reclaim min-runtime 0s from queue leaf1 (lca)"},
		{r.Resolve(runtime.ActionPreempt, queuetree.None, id(t, tree, "leaf2")), "preempt min-runtime 0s from default (queue)"},
		{runtime.Resolution{Duration: 52 * time.Hour, Source: 3, SourceName: "x", Action: runtime.ActionPreempt, Method: runtime.MethodQueue}, "preempt min-runtime 2d4h from queue x (queue)"},
		{runtime.Resolution{}, "preempt min-runtime 0s from default (lca)"},
	}
	for _, tt := range tests {
		if got := tt.res.String(); got != tt.want {
			t.Errorf("String() = %q; want %q", got, tt.want)
		}
	}
}

func TestNewResolverErrors(t *testing.T) {
	tree, err := queuetree.New([]queuetree.Queue{{Name: "a"}, {Name: "b", Parent: "a"}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := runtime.Config{
		DefaultPreempt: -time.Second,
		Method:         runtime.Method(5),
		Queues: []runtime.QueueSetting{
			{Queue: "a", Preempt: explicit(time.Minute)},
			{Queue: "ghost", Reclaim: explicit(time.Minute)},
			{Queue: "b", Reclaim: explicit(-time.Minute)},
			{Queue: "phantom"},
		},
	}
	r, err := runtime.NewResolver(tree, cfg)
	if r == nil {
		t.Error("NewResolver returned no repaired resolver beside its error")
	} else if res := r.Resolve(runtime.ActionPreempt, queuetree.None, id(t, tree, "b")); res.Duration != time.Minute || res.SourceName != "a" {
		t.Errorf("repaired resolver: %v, want 1m from a", res)
	}
	wantLines := []string{
		"runtime: DefaultPreempt is negative (-1s)",
		"runtime: invalid Method(5) (want MethodLCA or MethodQueue)",
		`runtime: queue "b": Reclaim is negative (-1m)`,
		`runtime: queue "ghost" has min-runtime settings but is not in the queue tree`,
		`runtime: queue "phantom" has min-runtime settings but is not in the queue tree`,
	}
	if err == nil {
		t.Fatal("NewResolver: no error")
	}
	if diff := cmp.Diff(wantLines, strings.Split(err.Error(), "\n")); diff != "" {
		t.Errorf("NewResolver errors (-want +got):\n%s", diff)
	}

	if _, err := runtime.NewResolver(nil, runtime.Config{DefaultReclaim: -1}); err == nil ||
		err.Error() != "runtime: NewResolver needs a queue tree, got nil\nruntime: DefaultReclaim is negative (-1ns)" {
		t.Errorf("NewResolver(nil) error = %v", err)
	}
	// Settings are not checked against a missing tree: one error, not one per queue.
	onA := runtime.Config{Queues: []runtime.QueueSetting{{Queue: "a", Preempt: explicit(time.Minute)}}}
	if r, err := runtime.NewResolver(&queuetree.Tree{}, onA); r != nil || err == nil ||
		err.Error() != "runtime: NewResolver needs a queue tree built by queuetree.New, got the zero Tree" {
		t.Errorf("NewResolver(zero Tree) = %v, %v", r, err)
	}

	// The zero Config is valid on any tree and protects nothing.
	r, err = runtime.NewResolver(tree, runtime.Config{})
	if err != nil {
		t.Fatalf("zero Config: %v", err)
	}
	if res := r.Resolve(runtime.ActionReclaim, id(t, tree, "a"), id(t, tree, "b")); res.Duration != 0 || res.Source != queuetree.None {
		t.Errorf("zero Config: %v", res)
	}
}

// TestConcurrentQueries runs queries from several goroutines at once; with
// -race it checks that a Resolver is safe for concurrent use.
func TestConcurrentQueries(t *testing.T) {
	tree, r := designReclaim(t, "lca")
	leaf1, leaf3 := id(t, tree, "leaf1"), id(t, tree, "leaf3")
	want := r.Resolve(runtime.ActionReclaim, leaf3, leaf1)
	done := make(chan runtime.Resolution)
	for g := 0; g < 4; g++ {
		go func() {
			var last runtime.Resolution
			for i := 0; i < 1000; i++ {
				last = r.Resolve(runtime.ActionReclaim, leaf3, leaf1)
				r.Resolve(runtime.ActionPreempt, queuetree.None, leaf1)
			}
			done <- last
		}()
	}
	for g := 0; g < 4; g++ {
		if got := <-done; got != want {
			t.Errorf("concurrent Reclaim = %v; want %v", got, want)
		}
	}
}

// TestQueriesDoNotAllocate pins the hot path's zero allocations.
func TestQueriesDoNotAllocate(t *testing.T) {
	for _, method := range []string{"lca", "queue"} {
		tree, r := designReclaim(t, method)
		leaf1, leaf3 := id(t, tree, "leaf1"), id(t, tree, "leaf3")
		allocs := testing.AllocsPerRun(100, func() {
			r.Resolve(runtime.ActionReclaim, leaf3, leaf1)
			r.Resolve(runtime.ActionReclaim, leaf1, leaf3)
			r.Resolve(runtime.ActionPreempt, queuetree.None, leaf1)
			r.Resolve(runtime.ActionReclaim, leaf3, leaf1)
			r.Resolve(9, leaf3, leaf1) // an invalid Action
		})
		if allocs != 0 {
			t.Errorf("%s: queries allocate %v times per run", method, allocs)
		}
	}
}
