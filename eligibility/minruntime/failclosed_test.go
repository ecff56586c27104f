package minruntime_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// TestFilterFailsClosed: a victim whose queue was never set (the zero Job,
// a nil victim) or is not in the tree is denied with its own reason and no
// Until, whatever its start, for both actions; the preemptor's queue is
// checked only where the answer depends on it (a reclaim under lca).
func TestFilterFailsClosed(t *testing.T) {
	tree, r := elDesignTree(t, runtime.MethodLCA)
	f := minruntime.Filter{Resolver: r}
	leaf3 := elID(t, tree, "leaf3")
	now := elMin(1)
	starts := []time.Time{{}, elMin(-1), elMin(-100), elMin(5)} // none, protected anywhere, long ago, skew
	for _, tc := range []struct {
		name      string
		victim    queuetree.ID
		preemptor queuetree.ID
		action    runtime.Action
		method    runtime.Method
		want      eligibility.Reason
	}{
		{"zero victim preempt", queuetree.None, leaf3, runtime.ActionPreempt, runtime.MethodLCA, minruntime.ReasonQueueUnset},
		{"zero victim reclaim", queuetree.None, leaf3, runtime.ActionReclaim, runtime.MethodLCA, minruntime.ReasonQueueUnset},
		{"zero victim reclaim queue method", queuetree.None, leaf3, runtime.ActionReclaim, runtime.MethodQueue, minruntime.ReasonQueueUnset},
		{"stale victim", queuetree.ID(tree.IDLimit()), leaf3, runtime.ActionPreempt, runtime.MethodLCA, minruntime.ReasonUnknownQueue},
		{"negative victim", -7, leaf3, runtime.ActionReclaim, runtime.MethodLCA, minruntime.ReasonUnknownQueue},
		{"zero preemptor lca", leaf3, queuetree.None, runtime.ActionReclaim, runtime.MethodLCA, minruntime.ReasonQueueUnset},
		{"stale preemptor lca", leaf3, 1 << 20, runtime.ActionReclaim, runtime.MethodLCA, minruntime.ReasonUnknownQueue},
	} {
		g := minruntime.Filter{Resolver: withMethod(t, tc.method)}
		for _, start := range starts {
			d := g.Check(tc.action, tc.preemptor, &eligibility.Job{ID: "j", Queue: tc.victim, Start: start}, now)
			want := eligibility.Decision{Reason: tc.want}
			if diff := cmp.Diff(want, d.Decision); diff != "" {
				t.Errorf("%s, start %v (-want +got):\n%s", tc.name, start, diff)
			}
			if d.Resolution.Duration != 0 || d.Resolution.Source != queuetree.None || d.Resolution.Action != tc.action {
				t.Errorf("%s: resolution %+v, want nothing resolved", tc.name, d.Resolution)
			}
			if g.Check(tc.action, tc.preemptor, &eligibility.Job{Queue: tc.victim, Start: start}, now).Allowed {
				t.Errorf("%s: Allowed = true", tc.name)
			}
		}
	}
	// A nil victim is a job without a queue.
	if d := f.Check(runtime.ActionReclaim, leaf3, nil, now); d.Allowed || d.Reason != minruntime.ReasonQueueUnset {
		t.Errorf("nil victim: %v, want denied queue_unset", d)
	}
	// The preemptor is not consulted by a preempt or a queue-method
	// reclaim, so its unset queue changes nothing there.
	victim := &eligibility.Job{ID: "v", Queue: leaf3, Start: elMin(-1)}
	for _, a := range []runtime.Action{runtime.ActionPreempt, runtime.ActionReclaim} {
		g := minruntime.Filter{Resolver: withMethod(t, runtime.MethodQueue)}
		if got, want := g.Check(a, queuetree.None, victim, now), g.Check(a, leaf3, victim, now); got != want {
			t.Errorf("%v, queue method: unset preemptor gave %v, want %v", a, got, want)
		}
	}
	// Root is a queue nobody sets by accident: it gets the defaults.
	if d := f.Check(runtime.ActionPreempt, leaf3, &eligibility.Job{Queue: queuetree.Root, Start: elMin(-1)}, now); !d.Allowed || d.Reason != eligibility.Reason("no_min_runtime") {
		t.Errorf("Root victim: %v, want the default (0: allowed)", d)
	}
}

// TestFilterFailOpen: with FailOpen an unset or unknown queue resolves to
// the node-pool defaults, exactly as the resolver answers for it.
func TestFilterFailOpen(t *testing.T) {
	_, r := elSetup(t, runtime.MethodLCA, 5*time.Minute, 7*time.Minute, elQueue{Name: "a", Preempt: "1h", Reclaim: "1h"})
	f := minruntime.Filter{Resolver: r, FailOpen: true}
	for _, q := range []queuetree.ID{queuetree.None, 99, -1} {
		d := f.Check(runtime.ActionReclaim, q, &eligibility.Job{Queue: q, Start: elMin(-1)}, elT0)
		if d.Allowed || d.Reason != eligibility.ReasonMinRuntimeProtected || d.Resolution.Duration != 7*time.Minute || !d.Until.Equal(elMin(6)) {
			t.Errorf("queue %d: %v, want denied by the 7m default until +6m", q, d)
		}
	}
}

// TestFilterForgottenQueueNeverCostsProtection is the property behind fail
// closed, against an oracle that knows nothing of the filter: for any
// queue ID, valid or not, any start and any instant, a victim whose queue
// is unset or unknown is never allowed; a victim in a real queue gets
// exactly the FailOpen answer (which is the plain resolution).
func TestFilterForgottenQueueNeverCostsProtection(t *testing.T) {
	tree, _ := elDesignTree(t, runtime.MethodLCA)
	rapid.Check(t, func(rt *rapid.T) {
		method := runtime.Method(rapid.IntRange(0, 1).Draw(rt, "method"))
		action := runtime.Action(rapid.IntRange(0, 1).Draw(rt, "action"))
		ids := rapid.IntRange(-2, tree.IDLimit()+1)
		victim := queuetree.ID(ids.Draw(rt, "victim"))
		preemptor := queuetree.ID(ids.Draw(rt, "preemptor"))
		job := &eligibility.Job{Queue: victim, Start: elMin(rapid.IntRange(-20, 5).Draw(rt, "start"))}
		if rapid.Bool().Draw(rt, "no start") {
			job.Start = time.Time{}
		}
		now := elMin(rapid.IntRange(0, 20).Draw(rt, "now"))
		closed := minruntime.Filter{Resolver: withMethod(t, method)}
		open := closed
		open.FailOpen = true
		got := closed.Check(action, preemptor, job, now)
		usable := func(id queuetree.ID) bool { return id >= queuetree.Root && int(id) < tree.IDLimit() }
		needsPreemptor := action == runtime.ActionReclaim && method == runtime.MethodLCA
		if !usable(victim) || (needsPreemptor && !usable(preemptor)) {
			if got.Allowed || !got.Until.IsZero() || (got.Reason != minruntime.ReasonQueueUnset && got.Reason != minruntime.ReasonUnknownQueue) {
				rt.Fatalf("victim %d, preemptor %d: %v, want a fail-closed denial", victim, preemptor, got)
			}
			return
		}
		if want := open.Check(action, preemptor, job, now); got != want {
			rt.Fatalf("real queues: %v, want %v", got, want)
		}
	})
}

// TestValidatorFailsClosed: an elastic victim without a usable queue cannot
// be judged, so a scenario taking any of its active tasks is rejected with
// its own reason and no Until; FailOpen judges it under the defaults.
func TestValidatorFailsClosed(t *testing.T) {
	tree, r := elSetup(t, runtime.MethodLCA, 0, 0, elQueue{Name: "a", Preempt: "1h", Reclaim: "1h"}, elQueue{Name: "b"})
	a := elID(t, tree, "a")
	elastic := func(q queuetree.ID) *eligibility.Job {
		return &eligibility.Job{ID: "e", Queue: q, Start: elMin(-1),
			Subgroups: []eligibility.Subgroup{{Name: "w", MinAvailable: 1, Active: 4}}}
	}
	take := func(j *eligibility.Job, n int, active bool) []minruntime.Victim {
		tasks := make([]minruntime.Task, n)
		for i := range tasks {
			tasks[i] = minruntime.Task{Subgroup: "w", Active: active}
		}
		return []minruntime.Victim{{Job: j, Tasks: tasks}}
	}
	v := minruntime.Validator{Resolver: r}
	for _, tc := range []struct {
		name              string
		victim, preemptor queuetree.ID
		action            runtime.Action
		want              eligibility.Reason
	}{
		{"unset victim", queuetree.None, a, runtime.ActionPreempt, minruntime.ReasonQueueUnset},
		{"unknown victim", 42, a, runtime.ActionReclaim, minruntime.ReasonUnknownQueue},
		{"unset reclaimer", a, queuetree.None, runtime.ActionReclaim, minruntime.ReasonQueueUnset},
	} {
		// One task, well within MinAvailable: allowed in a real queue.
		got, err := v.Validate(tc.action, tc.preemptor, take(elastic(tc.victim), 1, true), elT0)
		if err != nil || got.Allowed || got.Reason != tc.want || !got.Until.IsZero() || got.Job != "e" || got.Violations != 1 {
			t.Errorf("%s: %+v, %v; want rejected %s, no Until", tc.name, got, err, tc.want)
		}
		// Only releasing tasks listed: nothing is taken, nothing to protect.
		if got, err := v.Validate(tc.action, tc.preemptor, take(elastic(tc.victim), 2, false), elT0); err != nil || !got.Allowed {
			t.Errorf("%s, nothing active taken: %+v, %v; want allowed", tc.name, got, err)
		}
		open := minruntime.Validator{Resolver: r, FailOpen: true}
		if got, err := open.Validate(tc.action, tc.preemptor, take(elastic(tc.victim), 4, true), elT0); err != nil || !got.Allowed {
			t.Errorf("%s, FailOpen: %+v, %v; want judged under the 0 defaults (allowed)", tc.name, got, err)
		}
	}
	// A fail-closed rejection beside a time-bound one keeps Until zero:
	// waiting does not make the scenario acceptable.
	protected := elastic(a)
	protected.ID = "p"
	victims := append(take(protected, 4, true), take(elastic(queuetree.None), 1, true)...)
	got, err := v.Validate(runtime.ActionPreempt, a, victims, elT0)
	if err != nil || got.Allowed || got.Violations != 2 || !got.Until.IsZero() {
		t.Errorf("mixed: %+v, %v; want 2 violations and no Until", got, err)
	}
}

// withMethod is the design tree's resolver built with method m (its IDs
// are the same in every build of that tree).
func withMethod(tb testing.TB, m runtime.Method) *runtime.Resolver {
	_, r := elDesignTree(tb, m)
	return r
}
