package runtime_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// drawSetting draws a queue setting for name: each field unset, a
// duration, or (when bad) sometimes negative.
func drawSetting(rt *rapid.T, name string, bad bool) runtime.QueueSetting {
	s := runtime.QueueSetting{Queue: name}
	lo := 0
	if bad {
		lo = -1
	}
	if v := rapid.IntRange(lo-1, 5).Draw(rt, "pre"); v >= lo {
		s.Preempt = runtime.Explicit(time.Duration(v) * time.Minute)
	}
	if v := rapid.IntRange(lo-1, 5).Draw(rt, "rec"); v >= lo {
		s.Reclaim = runtime.Explicit(time.Duration(v) * time.Minute)
	}
	return s
}

// drawName draws a queue name of t's, or (when bad) sometimes an unknown
// or empty one.
func drawName(rt *rapid.T, t *queuetree.Tree, bad bool) string {
	var all []string
	for id := range t.IDs() {
		if id != queuetree.Root {
			all = append(all, t.Name(id))
		}
	}
	if bad {
		all = append(all, "", "unknown")
	}
	if len(all) == 0 {
		return "unknown"
	}
	return rapid.SampledFrom(all).Draw(rt, "queue")
}

// editedModel is the oracle of ApplyResolver's settings, written from its
// doc: c's entries for queues t has, then each edit in order replacing
// the first entry of its queue (and dropping the others), appended when
// there is none, or removing them all when it sets neither field.
func editedModel(c runtime.Config, t *queuetree.Tree, edits []runtime.QueueSetting) runtime.Config {
	var qs []runtime.QueueSetting
	for _, s := range c.Queues {
		if _, ok := t.Lookup(s.Queue); ok {
			qs = append(qs, s)
		}
	}
	for _, e := range edits {
		var out []runtime.QueueSetting
		done := e.Preempt == nil && e.Reclaim == nil
		for _, s := range qs {
			switch {
			case s.Queue != e.Queue:
				out = append(out, s)
			case !done:
				out, done = append(out, e), true
			}
		}
		if !done {
			out = append(out, e)
		}
		qs = out
	}
	c.Queues = qs
	return c
}

// errorTexts returns the messages of errs.
func errorTexts(errs []error) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

// TestApplyResolverEqualsNew drives random sequences of tree edits
// (queuetree.ApplyTolerant) and setting edits through ApplyResolverTolerant
// and ApplyResolver, from clean and repaired resolvers, and checks each
// result against NewResolverTolerant and NewResolver of the model's
// Config: every answer, every problem, the strict error, that the patch
// serves exactly the cases its doc names, that UpdateResolverTolerant
// recognises the result as built from the model's Config, and that the
// previous resolver still answers as before.
func TestApplyResolverEqualsNew(t *testing.T) {
	patched := 0
	rapid.Check(t, func(rt *rapid.T) {
		qs := drawQueues(rt)
		tree, _ := queuetree.NewTolerant(qs)
		bad := rapid.IntRange(0, 3).Draw(rt, "bad") == 0
		c := runtime.Config{DefaultPreempt: time.Minute, DefaultReclaim: 2 * time.Minute,
			Method: runtime.Method(rapid.IntRange(0, 1).Draw(rt, "method"))}
		for range rapid.IntRange(0, len(qs)).Draw(rt, "settings") {
			c.Queues = append(c.Queues, drawSetting(rt, drawName(rt, tree, bad), bad))
		}
		r, problems := runtime.NewResolverTolerant(tree, c)
		linked := negativesOnly(problems)
		for step := range rapid.IntRange(1, 6).Draw(rt, "steps") {
			t2 := tree
			if rapid.Bool().Draw(rt, "treeEdit") {
				t2, _ = queuetree.ApplyTolerant(tree, drawEdit(rt, tree))
			}
			var edits []runtime.QueueSetting
			for range rapid.IntRange(0, 3).Draw(rt, "edits") {
				edits = append(edits, drawSetting(rt, drawName(rt, t2, bad), bad))
			}
			c2 := editedModel(c, t2, edits)
			var got *runtime.Resolver
			got, problems = runtime.ApplyResolverTolerant(r, t2, edits...)
			want, wantProblems := runtime.NewResolverTolerant(t2, c2)
			if diff := cmp.Diff(errorTexts(wantProblems), errorTexts(problems)); diff != "" {
				rt.Fatalf("step %d: problems (-NewResolverTolerant +ApplyResolverTolerant):\n%s", step, diff)
			}
			sameAnswers(rt, t2, got, want)
			strict, err := runtime.ApplyResolver(r, t2, edits...)
			if (err == nil) != (len(wantProblems) == 0) || (err == nil) != (strict != nil) {
				rt.Fatalf("step %d: ApplyResolver = %v, %v; problems %v", step, strict, err, wantProblems)
			}
			if strict != nil {
				sameAnswers(rt, t2, strict, want)
			}
			if _, reused, _ := runtime.UpdateResolverTolerant(got, t2, c2); !reused {
				rt.Fatalf("step %d: UpdateResolverTolerant does not reuse the result for its own Config", step)
			}
			if f := runtime.Patch(r, t2, edits); f != nil {
				patched++
				sameAnswers(rt, t2, f, want)
			} else if linked && patchable(tree, t2, edits) {
				rt.Fatalf("step %d: the patch refused a resolver whose entries all name a queue once, a one-leaf patch and edits that set durations for t's queues", step)
			}
			before, _ := runtime.NewResolverTolerant(tree, c)
			sameAnswers(rt, tree, r, before) // r is unchanged
			tree, c, r, linked = t2, c2, got, negativesOnly(problems)
		}
	})
	if patched == 0 {
		t.Fatal("the patch never served a case")
	}
	t.Logf("%d steps patched", patched)
}

// negativesOnly reports whether every problem is a negative duration (the
// tests' defaults and methods are valid): every entry of the Config then
// named a queue once.
func negativesOnly(problems []error) bool {
	for _, p := range problems {
		if !strings.Contains(p.Error(), "is negative") {
			return false
		}
	}
	return true
}

// patchable reports whether ApplyResolver's patch must serve a resolver
// for t1 whose Config's entries each named a queue once: t2 the same tree
// or one one-leaf patch of it, and every edit that sets a duration naming
// a queue of t2. The tables' bound on removed settings is not reached in
// these short runs.
func patchable(t1, t2 *queuetree.Tree, edits []runtime.QueueSetting) bool {
	if _, ok := t2.ShiftsFrom(t1); !ok && t2 != t1 {
		return false
	}
	for _, e := range edits {
		if _, ok := t2.Lookup(e.Queue); !ok && (e.Preempt != nil || e.Reclaim != nil) {
			return false
		}
	}
	return true
}

// drawQueues draws a list of up to 20 queues, now and then with a parent
// that is not listed (NewTolerant then repairs it).
func drawQueues(rt *rapid.T) []queuetree.Queue {
	qs := make([]queuetree.Queue, rapid.IntRange(1, 20).Draw(rt, "n"))
	for i := range qs {
		qs[i].Name = fmt.Sprintf("q%02d", i)
		switch rapid.IntRange(0, 9).Draw(rt, "parentKind") {
		case 0, 1:
		case 2:
			qs[i].Parent = "missing"
		default:
			if i > 0 {
				qs[i].Parent = qs[rapid.IntRange(0, i-1).Draw(rt, "parent")].Name
			}
		}
	}
	return qs
}

// drawEdit draws one change of t's list: a queue added, removed or moved.
func drawEdit(rt *rapid.T, t *queuetree.Tree) queuetree.Edit {
	var all []string
	for id := range t.IDs() {
		if id != queuetree.Root {
			all = append(all, t.Name(id))
		}
	}
	parent := rapid.SampledFrom(append([]string{""}, all...)).Draw(rt, "to")
	if len(all) == 0 || rapid.IntRange(0, 2).Draw(rt, "op") == 0 {
		return queuetree.Edit{Name: fmt.Sprintf("new%d", rapid.IntRange(0, 9).Draw(rt, "new")), Parent: parent}
	}
	target := rapid.SampledFrom(all).Draw(rt, "target")
	if rapid.Bool().Draw(rt, "remove") {
		return queuetree.Edit{Name: target, Remove: true}
	}
	return queuetree.Edit{Name: target, Parent: parent}
}

// TestApplyResolverTablesStayBounded: a watch that sets and clears a
// queue's setting again and again leaves removed entries in the patched
// tables, and ApplyResolver rebuilds them compactly once they outnumber
// the live ones by more than its bound, so they never grow with the
// number of events.
func TestApplyResolverTablesStayBounded(t *testing.T) {
	tree, err := queuetree.New([]queuetree.Queue{{Name: "a"}, {Name: "b", Parent: "a"}, {Name: "c"}})
	if err != nil {
		t.Fatal(err)
	}
	c := runtime.Config{Queues: []runtime.QueueSetting{{Queue: "c", Preempt: runtime.Explicit(time.Hour)}}}
	r, err := runtime.NewResolver(tree, c)
	if err != nil {
		t.Fatal(err)
	}
	most := 0
	for i := range 1000 {
		e := runtime.QueueSetting{Queue: "a"} // clears a's setting
		if i%2 == 0 {
			e.Reclaim = runtime.Explicit(time.Duration(i) * time.Second)
		}
		if r, err = runtime.ApplyResolver(r, tree, e); err != nil {
			t.Fatal(err)
		}
		most = max(most, runtime.TableLen(r))
	}
	// 1 default + 2 live settings + at most 33 removed ones (maxDead+1).
	if most > 36 {
		t.Fatalf("the tables grew to %d entries", most)
	}
	want, _ := runtime.NewResolver(tree, c)
	b, _ := tree.Lookup("b")
	if got, w := r.Reclaim(queuetree.Root, b), want.Reclaim(queuetree.Root, b); got != w {
		t.Fatalf("Reclaim(root, b) = %v, want %v", got, w)
	}
}

// TestApplyResolverRefuses: a nil or zero resolver, and edits that name no
// queue of the tree or carry a negative duration, are errors naming what
// is wrong; the tolerant form reports the same and still returns a
// resolver, except for the nil one.
func TestApplyResolverRefuses(t *testing.T) {
	tree, err := queuetree.New([]queuetree.Queue{{Name: "a"}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := runtime.NewResolver(tree, runtime.Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		prev *runtime.Resolver
		edit runtime.QueueSetting
		want string
	}{
		{"nil", nil, runtime.QueueSetting{Queue: "a"}, "runtime: ApplyResolver needs a resolver to change"},
		{"zero", &runtime.Resolver{}, runtime.QueueSetting{Queue: "a"}, "runtime: ApplyResolver needs a resolver to change"},
		{"unknown", r, runtime.QueueSetting{Queue: "b", Preempt: runtime.Explicit(0)}, `queue "b"`},
		{"empty", r, runtime.QueueSetting{Preempt: runtime.Explicit(0)}, "empty"},
		{"negative", r, runtime.QueueSetting{Queue: "a", Reclaim: runtime.Explicit(-time.Second)}, "negative"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := runtime.ApplyResolver(tc.prev, tree, tc.edit)
			if got != nil || err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("ApplyResolver = %v, %v; want nil and an error containing %q", got, err, tc.want)
			}
			tol, problems := runtime.ApplyResolverTolerant(tc.prev, tree, tc.edit)
			if len(problems) != 1 || problems[0].Error() != err.Error() || (tol != nil) != (tc.prev == r) {
				t.Fatalf("ApplyResolverTolerant = %v, %v; want the same problem and a resolver only from r", tol, problems)
			}
		})
	}
}

// TestApplyResolverNoOps: no edits, or edits that change nothing, for the
// resolver's own tree return it itself, with its problems again; a
// removal for a queue the tree lacks, or for an empty name, does nothing
// and is no error.
func TestApplyResolverNoOps(t *testing.T) {
	tree, err := queuetree.New([]queuetree.Queue{{Name: "a"}, {Name: "b", Parent: "a"}})
	if err != nil {
		t.Fatal(err)
	}
	c := runtime.Config{Queues: []runtime.QueueSetting{{Queue: "a", Preempt: runtime.Explicit(-time.Minute)}}}
	bad, problems := runtime.NewResolverTolerant(tree, c)
	if got, again := runtime.ApplyResolverTolerant(bad, tree); got != bad || len(again) != 1 || again[0].Error() != problems[0].Error() {
		t.Fatalf("no edits: %p, %v; want the resolver itself %p and its problem %v", got, again, bad, problems)
	}
	c.Queues[0].Preempt = runtime.Explicit(time.Hour)
	r, err := runtime.NewResolver(tree, c)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := runtime.ApplyResolver(r, tree); got != r || err != nil {
		t.Fatalf("no edits: %p, %v; want the resolver itself %p", got, err, r)
	}
	for _, e := range []runtime.QueueSetting{{Queue: "b"}, {Queue: "nope"}, c.Queues[0]} {
		if got, err := runtime.ApplyResolver(r, tree, e); got != r || err != nil {
			t.Errorf("an edit that changes nothing (%+v): %p, %v; want the resolver itself %p", e, got, err, r)
		}
	}
	b, _ := tree.Lookup("b")
	for _, name := range []string{"nope", ""} {
		got, err := runtime.ApplyResolver(r, tree, runtime.QueueSetting{Queue: name})
		if err != nil || got.Preempt(b) != r.Preempt(b) {
			t.Fatalf("removal for %q: %v, %v; want no error and the same answers", name, got, err)
		}
	}
}

// TestApplyResolverOrderOfAppended: a queue's setting removed and set
// again goes after the settings appended meanwhile, as the edits applied
// in order put it, so the problems come in NewResolverTolerant's order
// (a repeated entry keeps the resolver off the patch, on the written-out
// Config).
func TestApplyResolverOrderOfAppended(t *testing.T) {
	tree, err := queuetree.New([]queuetree.Queue{{Name: "a"}, {Name: "x"}, {Name: "y"}})
	if err != nil {
		t.Fatal(err)
	}
	c := runtime.Config{Queues: []runtime.QueueSetting{{Queue: "a", Preempt: runtime.Explicit(0)}, {Queue: "a", Preempt: runtime.Explicit(0)}}}
	r, _ := runtime.NewResolverTolerant(tree, c)
	neg := func(q string, m time.Duration) runtime.QueueSetting {
		return runtime.QueueSetting{Queue: q, Preempt: runtime.Explicit(-m)}
	}
	edits := []runtime.QueueSetting{neg("x", time.Minute), neg("y", 2*time.Minute), {Queue: "x"}, neg("x", 3*time.Minute)}
	_, problems := runtime.ApplyResolverTolerant(r, tree, edits...)
	_, want := runtime.NewResolverTolerant(tree, editedModel(c, tree, edits))
	if diff := cmp.Diff(errorTexts(want), errorTexts(problems)); diff != "" || len(want) != 3 {
		t.Fatalf("problems (-want +got):\n%s\nwant %q", diff, errorTexts(want))
	}
}
