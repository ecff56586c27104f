package minruntime_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

func TestMinRuntimeFilter(t *testing.T) {
	tree, lca := elDesignTree(t, runtime.MethodLCA)
	_, byQueue := elDesignTree(t, runtime.MethodQueue)
	q := func(name string) queuetree.ID { return elID(t, tree, name) }
	elastic := []eligibility.Subgroup{{Name: "w", MinAvailable: 1, Active: 3}}
	gang := []eligibility.Subgroup{{Name: "w", MinAvailable: 3, Active: 3}}

	tests := []struct {
		name      string
		r         *runtime.Resolver
		action    runtime.Action
		preemptor string
		victim    string
		start     time.Time
		subgroups []eligibility.Subgroup
		now       time.Time
		wantDur   time.Duration
		want      eligibility.Decision // Resolution is filled from the resolver
	}{
		// Design-doc reclaim example 1: leaf1 -> leaf3 uses D's 60s.
		{name: "designTree ex1 protected", r: lca, action: runtime.ActionReclaim, preemptor: "leaf1", victim: "leaf3",
			start: elT0, now: elT0.Add(59 * time.Second), wantDur: 60 * time.Second,
			want: eligibility.Decision{Allowed: false, Reason: eligibility.ReasonMinRuntimeProtected, Until: elT0.Add(60 * time.Second)}},
		{name: "designTree ex1 evictable at exactly start+d", r: lca, action: runtime.ActionReclaim, preemptor: "leaf1", victim: "leaf3",
			start: elT0, now: elT0.Add(60 * time.Second), wantDur: 60 * time.Second,
			want: eligibility.Decision{Allowed: true, Reason: eligibility.Reason("not_protected")}},
		{name: "designTree ex1 one ns before expiry", r: lca, action: runtime.ActionReclaim, preemptor: "leaf1", victim: "leaf3",
			start: elT0, now: elT0.Add(60*time.Second - 1), wantDur: 60 * time.Second,
			want: eligibility.Decision{Allowed: false, Reason: eligibility.ReasonMinRuntimeProtected, Until: elT0.Add(60 * time.Second)}},
		// Design-doc reclaim example 2: leaf1 -> leaf2 uses leaf2's 180s.
		{name: "designTree ex2", r: lca, action: runtime.ActionReclaim, preemptor: "leaf1", victim: "leaf2",
			start: elT0, now: elMin(2), wantDur: 180 * time.Second,
			want: eligibility.Decision{Allowed: false, Reason: eligibility.ReasonMinRuntimeProtected, Until: elMin(3)}},
		{name: "designTree ex2 expired", r: lca, action: runtime.ActionReclaim, preemptor: "leaf1", victim: "leaf2",
			start: elT0, now: elMin(3), wantDur: 180 * time.Second,
			want: eligibility.Decision{Allowed: true, Reason: eligibility.Reason("not_protected")}},
		// Design-doc reclaim example 3: leaf3 -> leaf1 uses C, inheriting B's 600s.
		{name: "designTree ex3 lca", r: lca, action: runtime.ActionReclaim, preemptor: "leaf3", victim: "leaf1",
			start: elT0, now: elMin(9), wantDur: 600 * time.Second,
			want: eligibility.Decision{Allowed: false, Reason: eligibility.ReasonMinRuntimeProtected, Until: elMin(10)}},
		// The queue method uses leaf1's own explicit 0s.
		{name: "designTree ex3 queue method", r: byQueue, action: runtime.ActionReclaim, preemptor: "leaf3", victim: "leaf1",
			start: elT0, now: elMin(1), wantDur: 0,
			want: eligibility.Decision{Allowed: true, Reason: eligibility.Reason("no_min_runtime")}},
		// Design-doc preempt examples: leaf1 300s, leaf2 inherits B's 600s.
		{name: "designTree preempt leaf1", r: lca, action: runtime.ActionPreempt, preemptor: "leaf1", victim: "leaf1",
			start: elT0, now: elMin(4), wantDur: 300 * time.Second,
			want: eligibility.Decision{Allowed: false, Reason: eligibility.ReasonMinRuntimeProtected, Until: elMin(5)}},
		{name: "designTree preempt leaf2 inherits", r: lca, action: runtime.ActionPreempt, preemptor: "leaf2", victim: "leaf2",
			start: elT0, now: elMin(9), wantDur: 600 * time.Second,
			want: eligibility.Decision{Allowed: false, Reason: eligibility.ReasonMinRuntimeProtected, Until: elMin(10)}},
		{name: "preempt at exactly expiry", r: lca, action: runtime.ActionPreempt, preemptor: "leaf2", victim: "leaf2",
			start: elT0, now: elMin(10), wantDur: 600 * time.Second,
			want: eligibility.Decision{Allowed: true, Reason: eligibility.Reason("not_protected")}},
		{name: "missing start is not protected", r: lca, action: runtime.ActionPreempt, preemptor: "leaf2", victim: "leaf2",
			now: elMin(1), wantDur: 600 * time.Second,
			want: eligibility.Decision{Allowed: true, Reason: eligibility.ReasonMissingStart}},
		{name: "clock skew is protected until start+d", r: lca, action: runtime.ActionPreempt, preemptor: "leaf2", victim: "leaf2",
			start: elMin(5), now: elT0, wantDur: 600 * time.Second,
			want: eligibility.Decision{Allowed: false, Reason: eligibility.ReasonClockSkew, Until: elMin(15)}},
		{name: "start == now is protected, not skew", r: lca, action: runtime.ActionPreempt, preemptor: "leaf2", victim: "leaf2",
			start: elMin(5), now: elMin(5), wantDur: 600 * time.Second,
			want: eligibility.Decision{Allowed: false, Reason: eligibility.ReasonMinRuntimeProtected, Until: elMin(15)}},
		{name: "clock skew with d=0 is not protected", r: lca, action: runtime.ActionReclaim, preemptor: "leaf2", victim: "leaf1",
			start: elMin(5), now: elT0, wantDur: 0,
			want: eligibility.Decision{Allowed: true, Reason: eligibility.Reason("no_min_runtime")}},
		{name: "elastic protected victim is deferred", r: lca, action: runtime.ActionPreempt, preemptor: "leaf2", victim: "leaf2",
			start: elT0, now: elMin(1), subgroups: elastic, wantDur: 600 * time.Second,
			want: eligibility.Decision{Allowed: true, Reason: minruntime.ReasonElasticDeferred, Until: elMin(10)}},
		{name: "elastic but unprotected: the plain reason", r: lca, action: runtime.ActionPreempt, preemptor: "leaf2", victim: "leaf2",
			start: elT0, now: elMin(10), subgroups: elastic, wantDur: 600 * time.Second,
			want: eligibility.Decision{Allowed: true, Reason: eligibility.Reason("not_protected")}},
		{name: "elastic with d=0", r: lca, action: runtime.ActionReclaim, preemptor: "leaf2", victim: "leaf1",
			start: elT0, now: elT0, subgroups: elastic, wantDur: 0,
			want: eligibility.Decision{Allowed: true, Reason: eligibility.Reason("no_min_runtime")}},
		{name: "elastic with clock skew is deferred", r: lca, action: runtime.ActionPreempt, preemptor: "leaf2", victim: "leaf2",
			start: elMin(5), now: elT0, subgroups: elastic, wantDur: 600 * time.Second,
			want: eligibility.Decision{Allowed: true, Reason: minruntime.ReasonElasticDeferred, Until: elMin(15)}},
		{name: "gang at its minimum is not elastic", r: lca, action: runtime.ActionPreempt, preemptor: "leaf2", victim: "leaf2",
			start: elT0, now: elMin(1), subgroups: gang, wantDur: 600 * time.Second,
			want: eligibility.Decision{Allowed: false, Reason: eligibility.ReasonMinRuntimeProtected, Until: elMin(10)}},
		{name: "nil resolver fails closed", r: nil, action: runtime.ActionReclaim, preemptor: "leaf3", victim: "leaf1",
			start: elT0, now: elT0, wantDur: 0,
			want: eligibility.Decision{Allowed: false, Reason: minruntime.ReasonNoResolver}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := minruntime.Filter{Resolver: tc.r}
			victim := &eligibility.Job{ID: "v", Queue: q(tc.victim), Start: tc.start, Subgroups: tc.subgroups}
			got := f.Check(tc.action, q(tc.preemptor), victim, tc.now)
			want := minruntime.Decision{Decision: tc.want}
			want.Resolution = tc.r.Resolve(tc.action, q(tc.preemptor), q(tc.victim))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Check (-want +got):\n%s", diff)
			}
			if got.Resolution.Duration != tc.wantDur {
				t.Errorf("resolved duration = %v, want %v", got.Resolution.Duration, tc.wantDur)
			}
			if f.Check(tc.action, q(tc.preemptor), victim, tc.now).Allowed != want.Allowed {
				t.Errorf("Allowed disagrees with Check")
			}
		})
	}
}

// The example workflow of docs/plugins/minruntime.md: reclaimMinRuntime 30s; at 20s of runtime the
// victim is protected, at 30s it is not.
func TestMinRuntimeFilterPluginDocWorkflow(t *testing.T) {
	tree, r := elSetup(t, runtime.MethodLCA, 10*time.Minute, 10*time.Minute,
		elQueue{Name: "production", Preempt: "20s", Reclaim: "30s"},
		elQueue{Name: "research"},
	)
	f := minruntime.Filter{Resolver: r}
	victim := &eligibility.Job{ID: "train", Queue: elID(t, tree, "production"), Start: elT0}
	reclaimer := elID(t, tree, "research")

	if d := f.Check(runtime.ActionReclaim, reclaimer, victim, elT0.Add(20*time.Second)); d.Allowed || !d.Until.Equal(elT0.Add(30*time.Second)) {
		t.Errorf("at 20s: %v, want denied until +30s", d)
	}
	if d := f.Check(runtime.ActionReclaim, reclaimer, victim, elT0.Add(30*time.Second)); !d.Allowed {
		t.Errorf("at 30s: %v, want allowed", d)
	}
	// A job in research (no setting) falls back to the 10m plugin default.
	other := &eligibility.Job{ID: "other", Queue: reclaimer, Start: elT0}
	d := f.Check(runtime.ActionPreempt, reclaimer, other, elMin(9))
	if d.Allowed || d.Resolution.Duration != 10*time.Minute || d.Resolution.Source != queuetree.None {
		t.Errorf("default: %v, want denied by the 10m default", d)
	}
}

func TestMinRuntimeFilterBadInput(t *testing.T) {
	var f *minruntime.Filter // nil filter
	if d := f.Check(runtime.ActionReclaim, queuetree.None, nil, elT0); d.Allowed || d.Reason != minruntime.ReasonNoResolver {
		t.Errorf("nil filter, nil victim: %v, want denied no_resolver", d)
	}
	_, r := elDesignTree(t, runtime.MethodLCA)
	g := minruntime.Filter{Resolver: r}
	// Invalid queue IDs must not panic.
	for _, id := range []queuetree.ID{queuetree.None, 1 << 20, -7} {
		g.Check(runtime.ActionReclaim, id, &eligibility.Job{Queue: id, Start: elT0}, elT0)
		g.Check(runtime.ActionPreempt, id, &eligibility.Job{Queue: id, Start: elT0}, elT0)
	}
}

func TestMinRuntimeFilterAllocs(t *testing.T) {
	tree, r := elDesignTree(t, runtime.MethodLCA)
	f := minruntime.Filter{Resolver: r}
	victim := &eligibility.Job{ID: "v", Queue: elID(t, tree, "leaf1"), Start: elT0,
		Subgroups: []eligibility.Subgroup{{Name: "a", MinAvailable: 2, Active: 2}}}
	p := elID(t, tree, "leaf3")
	var sink minruntime.Decision
	if n := testing.AllocsPerRun(100, func() { sink = f.Check(runtime.ActionReclaim, p, victim, elMin(1)) }); n != 0 {
		t.Errorf("Check allocates %v per call", n)
	}
	_ = sink
}

func TestMinRuntimeDecisionString(t *testing.T) {
	d := eligibility.Decision{Allowed: false, Reason: eligibility.ReasonMinRuntimeProtected, Until: elMin(10)}
	s := d.String()
	for _, want := range []string{"denied", "minruntime_protected", "2025-01-15T10:10:00Z"} {
		if !strings.Contains(s, want) {
			t.Errorf("String() = %q, missing %q", s, want)
		}
	}
	if s := (eligibility.Decision{Allowed: true, Reason: eligibility.Reason("not_protected")}).String(); !strings.Contains(s, "allowed (not_protected)") {
		t.Errorf("String() = %q", s)
	}
}
